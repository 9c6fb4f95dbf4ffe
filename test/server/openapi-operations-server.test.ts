import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandboxServer, type SandboxServer } from '../../src/server/index.js'

const DOCUMENT = 'examples/openapi/petstore-extras.yaml'
const FREE = { authorization: 'Bearer sandbox-free' }

describe('operations from an OpenAPI document, served over HTTP', () => {
  let app: SandboxServer<string>
  let base = ''
  beforeAll(async () => {
    app = createSandboxServer({ openapi: DOCUMENT })
    base = (await app.listen(0)).url
  })
  afterAll(() => app.close())

  const send = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${base}${path}`, {
      ...init,
      headers: {
        ...(init.headers === undefined ? FREE : {}),
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
    })
    const text = await response.text()
    return {
      status: response.status,
      headers: response.headers,
      json: text === '' ? undefined : JSON.parse(text),
    }
  }

  it('requires a key for the document’s operations, as for /v1/pets', async () => {
    const answer = await send('/v1/categories', { headers: {} })
    expect([answer.status, answer.json.code]).toEqual([401, 'missing_api_key'])
  })

  it('counts one quota with /v1/pets and sends its headers', async () => {
    await app.sandbox.reset()
    const pets = await send('/v1/pets?limit=1')
    const categories = await send('/v1/categories?limit=1')
    const inventory = await send('/v1/store/inventory')
    expect(
      [pets, categories, inventory].map((a) => a.headers.get('x-ratelimit-remaining')),
    ).toEqual(['59', '58', '57'])
    expect(categories.headers.get('x-total-count')).toBe('10')
    expect(categories.headers.get('link')).toMatch(/\/v1\/categories\?limit=1&cursor=/)
  })

  it('applies the scenario: unavailable answers 503 for a document’s operation too', async () => {
    const answer = await send('/v1/store/orders?__scenario=unavailable', {
      method: 'POST',
      headers: FREE,
      body: JSON.stringify({ petId: 1, quantity: 1 }),
    })
    expect([answer.status, answer.json.code]).toEqual([503, 'service_unavailable'])
    expect(answer.headers.get('retry-after')).not.toBeNull()
  })

  it('keeps records per session, and a reset restores the seeded ones', async () => {
    const created = await send('/v1/categories?__session=alice', {
      method: 'POST',
      headers: FREE,
      body: JSON.stringify({ name: 'Reptiles' }),
    })
    expect([created.status, created.json]).toEqual([201, { id: 11, name: 'Reptiles' }])
    expect(created.headers.get('location')).toBe(`${base}/v1/categories/11`)
    expect((await send('/v1/categories/11?__session=alice')).status).toBe(200)
    expect((await send('/v1/categories/11')).json.code).toBe('not_found')
    await app.sandbox.session('alice').reset()
    expect((await send('/v1/categories/11?__session=alice')).status).toBe(404)
  })

  it('answers validation errors with the contract’s Error body and details', async () => {
    const answer = await send('/v1/store/orders', {
      method: 'POST',
      headers: FREE,
      body: JSON.stringify({ petId: 0 }),
    })
    expect(answer.status).toBe(400)
    expect(answer.json).toMatchObject({
      code: 'validation_failed',
      status: 400,
      details: [
        { field: 'quantity', message: 'is required' },
        { field: 'petId', message: 'must be >= 1' },
      ],
    })
    expect((await send('/v1/categories/abc')).json.code).toBe('invalid_parameter')
  })

  it('journals the document’s operations under their operationId, and coverage lists them', async () => {
    await app.sandbox.reset()
    await send('/v1/store/inventory')
    const entries = app.sandbox.journal.list()
    expect(entries.at(-1)?.operation).toBe('getInventory')
    const coverage = await app.sandbox.coverage()
    expect(coverage.operations.map((o) => o.operation)).toContain('placeOrder')
  })

  it('serves the added operations in /__sandbox/openapi.json, next to the contract’s', async () => {
    const document = await (await fetch(`${base}/__sandbox/openapi.json`)).json()
    expect(document.paths['/pets'].get.operationId).toBe('listPets')
    expect(document.paths['/store/orders'].post).toMatchObject({
      operationId: 'placeOrder',
      'x-sandbox-source': 'openapi',
    })
    expect(Object.keys(document.paths['/categories/{categoryId}'])).toEqual(
      expect.arrayContaining(['parameters', 'get', 'put', 'patch', 'delete']),
    )
    expect(JSON.stringify(document)).not.toContain('$ref":"#/components/schemas/Category')
  })

  it('still answers 404 route_not_found for a path neither defines, and 405 for another method', async () => {
    expect((await send('/v1/stores')).json.code).toBe('route_not_found')
    const answer = await send('/v1/store/inventory', { method: 'DELETE', headers: FREE })
    expect([answer.status, answer.headers.get('allow')]).toEqual([405, 'GET, HEAD, OPTIONS'])
  })
})
