import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { parse } from 'yaml'
import { setupSandbox } from '../../src/runtimes/node.js'

// The document as an object (a browser passes it so): read and parsed by the test.
const document = parse(readFileSync('examples/openapi/petstore-extras.yaml', 'utf8')) as Record<
  string,
  unknown
>
const sandbox = setupSandbox({ openapi: document, seed: 7 })
beforeAll(async () => {
  sandbox.listen()
  await sandbox.ready
})
afterAll(() => sandbox.close())

const get = (
  path: string,
  headers: Record<string, string> = { authorization: 'Bearer sandbox-free' },
) => fetch(`https://api.example.test/v1${path}`, { headers })

it('serves the document’s operations in a test runner, key required, data from the seed', async () => {
  expect((await get('/categories', {})).status).toBe(401)
  const first = await (await get('/categories?limit=3')).json()
  expect(first).toHaveLength(3)
  await sandbox.reset()
  expect(await (await get('/categories?limit=3')).json()).toEqual(first)
  const order = await fetch('https://api.example.test/v1/store/orders', {
    method: 'POST',
    headers: { authorization: 'Bearer sandbox-free', 'content-type': 'application/json' },
    body: JSON.stringify({ petId: 2, quantity: 1 }),
  })
  expect(order.status).toBe(201)
  const placed = await order.json()
  expect(await (await get(`/store/orders/${placed.id}`)).json()).toEqual(placed)
  // A reset brings the seeded records back: the order is gone.
  await sandbox.reset()
  expect((await get(`/store/orders/${placed.id}`)).status).toBe(404)
})

it('applies a sticky scenario to the document’s operations', async () => {
  sandbox.scenario.set('server-error')
  expect((await get('/store/inventory')).status).toBe(500)
  sandbox.scenario.set('default')
  expect((await get('/store/inventory')).status).toBe(200)
})
