import { setupSandbox } from 'petstore-sandbox/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PactExport } from '../../src/index.js'
import { createSandboxServer } from '../../src/server/index.js'

// Issue 37 item 3: the pact's pre-check reads the sandbox's whole OpenAPI document (the one
// /__sandbox/openapi.json serves), so the operations of the `openapi` option are interactions,
// not "no operation of the OpenAPI document answers GET /v1/categories".
const EXTRAS = 'examples/openapi/petstore-extras.yaml'
const API = 'https://api.example.test/v1'
const KEY = { authorization: 'Bearer sandbox-free' }
const JSON_TYPE = { 'content-type': 'application/json' }
const NAMES = { consumer: 'web-app', provider: 'pet-store' }

const descriptions = (exported: PactExport): string[] =>
  exported.pact.interactions.map((i) => i.description)

describe('sandbox.pact() with the openapi option', () => {
  // Closed before the standalone server's test: MSW would intercept its requests.
  const sandbox = setupSandbox({ openapi: EXTRAS })
  beforeAll(async () => {
    sandbox.listen()
    await sandbox.ready
  })
  afterAll(() => sandbox.close())

  it('writes the document’s operations as interactions, checked against that document', async () => {
    expect((await fetch(`${API}/categories`, { headers: KEY })).status).toBe(200)
    const created = await fetch(`${API}/categories`, {
      method: 'POST',
      headers: { ...KEY, ...JSON_TYPE },
      body: JSON.stringify({ name: 'Reptiles' }),
    })
    expect(created.status).toBe(201)
    expect((await fetch(`${API}/store/inventory`, { headers: KEY })).status).toBe(200)
    expect((await fetch(`${API}/pets?limit=2`, { headers: KEY })).status).toBe(200)
    const exported = await sandbox.pact(NAMES)
    expect(exported.problems).toEqual([])
    expect(descriptions(exported)).toEqual([
      'listCategories: 200',
      'createCategory: 201',
      'getInventory: 200',
      'listPets: 200',
    ])
  })

  it('still refuses what the document does not declare for its operations', async () => {
    await sandbox.reset()
    // The sandbox answers 400 invalid_parameter for an id that is not an integer; the document
    // declares only 200 and 404 for getCategory.
    expect((await fetch(`${API}/categories/abc`, { headers: KEY })).status).toBe(400)
    const exported = await sandbox.pact(NAMES)
    expect(exported.pact.interactions).toEqual([])
    expect(exported.problems).toEqual([
      {
        interaction: 'getCategory: 400 invalid_parameter',
        seqs: [expect.any(Number)],
        problems: ['status 400 is not declared for getCategory by the OpenAPI document'],
      },
    ])
  })
})

describe('GET /__sandbox/pact with the openapi option', () => {
  it('answers the document’s operations as interactions', async () => {
    const app = createSandboxServer({ openapi: EXTRAS })
    try {
      const origin = (await app.listen(0, '127.0.0.1')).url
      expect((await fetch(`${origin}/v1/categories`, { headers: KEY })).status).toBe(200)
      expect((await fetch(`${origin}/v1/pets?limit=1`, { headers: KEY })).status).toBe(200)
      const answer = await fetch(`${origin}/__sandbox/pact?consumer=web-app&provider=pet-store`)
      const exported = (await answer.json()) as PactExport
      expect(exported.problems).toEqual([])
      expect(descriptions(exported)).toEqual(['listCategories: 200', 'listPets: 200'])
    } finally {
      await app.close()
    }
  })
})
