import { setupSandbox } from 'petstore-sandbox/node'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'

const sandbox = setupSandbox()
beforeAll(() => sandbox.listen())
afterEach(() => sandbox.reset())
afterAll(() => sandbox.close())

const PETS = 'https://api.example.test/v1/pets'

it('answers 503 to an app that sends nothing but its scenario key', async () => {
  const headers = { authorization: 'Bearer sandbox-scenario-unavailable' }
  expect((await fetch(PETS, { headers })).status).toBe(503)
})

it('moves through a timeline as the test advances the sandbox clock', async () => {
  const headers = { authorization: 'Bearer sandbox-free' }
  sandbox.scenario.set({
    timeline: [
      { scenario: 'unavailable', forMs: 30_000 },
      { scenario: 'default', forMs: 1 },
    ],
  })
  expect((await fetch(PETS, { headers })).status).toBe(503)
  sandbox.clock.advance(30_000) // no real waiting
  expect((await fetch(PETS, { headers })).status).toBe(200)
  expect(sandbox.journal.list().map((e) => e.phase?.index)).toEqual([0, 1])
})
