import { mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setupSandbox } from 'petstore-sandbox/node'
import { afterAll, beforeAll, expect, it } from 'vitest'

const sandbox = setupSandbox()
beforeAll(() => sandbox.listen())
afterAll(() => sandbox.close())

const api = 'https://api.example.test/v1'
const headers = { authorization: 'Bearer sandbox-free' }

it('lists pets, and shows the outage page when the service is down', async () => {
  expect((await fetch(`${api}/pets?limit=5`, { headers })).status).toBe(200)
  expect((await fetch(`${api}/pets?__scenario=unavailable`, { headers })).status).toBe(503)
})

// After the tests: what the client really sent and relied on, as a Pact v4 file.
afterAll(async () => {
  const { pact, problems } = await sandbox.pact({ consumer: 'web-app', provider: 'pet-store' })
  expect(problems).toEqual([]) // exchanges the OpenAPI document would refuse
  const dir = join(tmpdir(), 'pacts') // your project: a pacts/ folder to publish
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'web-app-pet-store.json'), JSON.stringify(pact, null, 2))
})
