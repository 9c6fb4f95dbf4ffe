import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setupSandbox, writePact } from 'petstore-sandbox/node'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'

const sandbox = setupSandbox()
beforeAll(() => sandbox.listen())
afterAll(() => sandbox.close())

const dir = mkdtempSync(join(tmpdir(), 'pacts-')) // your project: 'pacts', a folder to publish

// After each test: its pact merged into <dir>/web-app-pet-store.json, then a clean sandbox.
afterEach(async () => {
  const { problems } = await writePact(sandbox, { consumer: 'web-app', provider: 'pet-store', dir })
  expect(problems).toEqual([]) // exchanges the OpenAPI document would refuse
  await sandbox.reset()
})

const api = 'https://api.example.test/v1'
const headers = { authorization: 'Bearer sandbox-free' }

it('lists pets', async () => {
  expect((await fetch(`${api}/pets?limit=5`, { headers })).status).toBe(200)
})

it('adds a pet', async () => {
  const created = await fetch(`${api}/pets`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Rex', categoryId: 3 }),
  })
  expect(created.status).toBe(201)
})
