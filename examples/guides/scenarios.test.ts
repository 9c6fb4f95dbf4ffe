import { setupSandbox } from 'petstore-sandbox/node'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'

const sandbox = setupSandbox()
beforeAll(() => sandbox.listen())
afterEach(() => sandbox.reset())
afterAll(() => sandbox.close())

const PETS = 'https://api.example.test/v1/pets'
const headers = { authorization: 'Bearer sandbox-free' }

it('answers 503 with Retry-After for one request in the unavailable scenario', async () => {
  const response = await fetch(`${PETS}?__scenario=unavailable`, { headers })
  expect(response.status).toBe(503)
  expect(response.headers.get('retry-after')).toBe('5')
})

it('keeps a sticky scenario until reset', async () => {
  sandbox.scenario.set('empty')
  expect(await (await fetch(PETS, { headers })).json()).toEqual([])
})
