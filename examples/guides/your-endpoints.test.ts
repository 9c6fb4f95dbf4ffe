import { HttpResponse, http } from 'msw'
import { publicHandler } from 'petstore-sandbox'
import { setupSandbox } from 'petstore-sandbox/node'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'

// Your endpoints beside the contract's: inside the sandbox's pipeline by default.
const sandbox = setupSandbox({
  handlers: [
    http.get('*/v1/categories', () => HttpResponse.json([{ id: 1, name: 'Cats' }])),
    publicHandler(http.get('*/v1/status', () => HttpResponse.json({ ok: true }))),
  ],
})
beforeAll(() => sandbox.listen())
afterEach(() => sandbox.reset())
afterAll(() => sandbox.close())

const API = 'https://api.example.test/v1'
const FREE = { authorization: 'Bearer sandbox-free' }

it('asks your endpoint for a key, counts it and journals it', async () => {
  expect((await fetch(`${API}/categories`)).status).toBe(401)
  const ok = await fetch(`${API}/categories`, { headers: FREE })
  expect(ok.status).toBe(200)
  expect(ok.headers.get('x-ratelimit-remaining')).toBe('59')
  await sandbox.requests.expect({ operation: 'GET /categories', status: 200 }, { times: 1 })
})

it('puts your endpoint through the scenario too', async () => {
  sandbox.scenario.set('unavailable')
  expect((await fetch(`${API}/categories`, { headers: FREE })).status).toBe(503)
  // A public endpoint needs no key, and the outage reaches it as well.
  expect((await fetch(`${API}/status`)).status).toBe(503)
})
