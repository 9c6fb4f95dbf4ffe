import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { ApiError } from '../../src/http/api-error.js'
import type { CompiledOperation } from '../../src/openapi/compile-openapi-operations.js'
import {
  createOpenApiOperations,
  type OpenApiOperations,
} from '../../src/openapi/create-openapi-operations.js'
import { resolveOptions } from '../../src/sandbox/resolve-options.js'

const EXTRAS = 'examples/openapi/petstore-extras.yaml'
const THINGS = 'test/openapi/fixtures/things-3.0.json'
const { settings } = resolveOptions({})
const encoder = new TextEncoder()

const open = (source: string | Record<string, unknown>, seed = 20301205) =>
  createOpenApiOperations({ source, basePath: '/v1', seed })

const byId = (api: OpenApiOperations, id: string): CompiledOperation => {
  const op = api.operations.find((o) => o.id === id)
  if (op === undefined) throw new Error(`no operation ${id}`)
  return op
}

/** Calls one operation as the pipeline would; an ApiError becomes its response. */
const call = (
  api: OpenApiOperations,
  id: string,
  input: {
    url?: string
    params?: Record<string, string>
    body?: unknown
    session?: string
    type?: string
  } = {},
) => {
  const op = byId(api, id)
  const url = new URL(input.url ?? `https://api.example.test/v1${op.path}`)
  const body =
    input.body === undefined
      ? null
      : encoder.encode(typeof input.body === 'string' ? input.body : JSON.stringify(input.body))
  try {
    const response = api.answer(op, {
      request: {
        method: op.method,
        url: url.href,
        headers: body === null ? {} : { 'content-type': input.type ?? 'application/json' },
        body,
      },
      url,
      params: input.params ?? {},
      settings,
      session: input.session ?? 'default',
    })
    // In memory (no shared store) every answer is synchronous.
    if (response instanceof Promise) throw new Error('an in-memory answer was a promise')
    return {
      ...response,
      json: response.body === null ? undefined : JSON.parse(String(response.body)),
    }
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    const response = error.toResponse()
    return { ...response, json: JSON.parse(String(response.body)) }
  }
}

/** Every answer's body against the operation's first success response schema. */
const expectValid = (api: OpenApiOperations, id: string, json: unknown): void => {
  const check = byId(api, id).success.check
  expect(check === undefined ? true : check(json)).toBe(true)
}

describe('operations from an OpenAPI document (the core)', () => {
  it('adds every operation of the document with its role: collections are stateful, the rest fixed', async () => {
    const api = await open(EXTRAS)
    expect(api.operations.map((o) => [o.id, o.method, o.path, o.role])).toEqual([
      ['listCategories', 'GET', '/categories', 'list'],
      ['createCategory', 'POST', '/categories', 'create'],
      ['getCategory', 'GET', '/categories/{categoryId}', 'fetch'],
      ['replaceCategory', 'PUT', '/categories/{categoryId}', 'replace'],
      ['updateCategory', 'PATCH', '/categories/{categoryId}', 'update'],
      ['deleteCategory', 'DELETE', '/categories/{categoryId}', 'delete'],
      ['placeOrder', 'POST', '/store/orders', 'create'],
      ['getOrder', 'GET', '/store/orders/{orderId}', 'fetch'],
      ['getInventory', 'GET', '/store/inventory', 'static'],
    ])
  })

  it('seeds the same records from the same seed, other records from another', async () => {
    const [a, b, c] = await Promise.all([open(EXTRAS), open(EXTRAS), open(EXTRAS, 7)])
    const first = call(a, 'listCategories').json
    expect(first).toHaveLength(10)
    expect(call(b, 'listCategories').json).toEqual(first)
    expect(call(c, 'listCategories').json).not.toEqual(first)
    expect(first.map((r: { id: number }) => r.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
  })

  it('answers every operation of both documents validly against the document', async () => {
    for (const source of [EXTRAS, THINGS]) {
      const api = await open(source)
      const list = api.operations.find((o) => o.role === 'list')
      const records = list === undefined ? [] : call(api, list.id).json
      for (const op of api.operations) {
        const shape = op.collection
        const params =
          shape === undefined || op.role === 'list' || op.role === 'create'
            ? {}
            : { [shape.idParam]: String(records[0]?.[shape.idField] ?? 1) }
        const body =
          op.role === 'create' && op.id === 'placeOrder'
            ? { petId: 1, quantity: 2 }
            : op.body === undefined
              ? undefined
              : { name: 'Kittens', label: 'ab' }
        const answer = call(api, op.id, { params, body })
        expect(answer.status, `${op.id}: ${JSON.stringify(answer.json)}`).toBeLessThan(300)
        if (answer.json !== undefined) expectValid(api, op.id, answer.json)
      }
    }
  })

  it('reads OpenAPI 3.0 (nullable, boolean exclusiveMaximum, allOf) and /v1 paths without a /v1 server as relative', async () => {
    const api = await open(THINGS)
    expect(api.operations.map((o) => o.path)).toEqual([
      '/things',
      '/things',
      '/things/{thingId}',
      '/health',
    ])
    const things = call(api, 'listThings').json
    expect(things[0].thingId).toBe('00000000-0000-4000-8000-000000000001')
    const created = call(api, 'createThing', { body: { label: 'Ünïcode', weight: null } })
    expect(created.status).toBe(201)
    expect(created.json).toMatchObject({
      thingId: '00000000-0000-4000-8000-00000000000b',
      label: 'Ünïcode',
      weight: null,
    })
    expect(created.headers.Location).toBe(
      'https://api.example.test/v1/things/00000000-0000-4000-8000-00000000000b',
    )
    expectValid(api, 'createThing', created.json)
    expect(call(api, 'getThing', { params: { thingId: created.json.thingId } }).json).toEqual(
      created.json,
    )
    // The health answer is generated: a nullable field, a ratio below 1, unique patterned tags.
    expectValid(api, 'GET /health', call(api, 'GET /health').json)
  })

  it('takes the document as an object, YAML parsed by the caller, leaving it unchanged', async () => {
    const object = parse(readFileSync(EXTRAS, 'utf8')) as Record<string, unknown>
    const before = structuredClone(object)
    const api = await open(object)
    expect(api.operations).toHaveLength(9)
    expect(object).toEqual(before)
  })

  it('creates, fetches, replaces, updates and deletes by id, and answers 404 not_found after', async () => {
    const api = await open(EXTRAS)
    const created = call(api, 'createCategory', { body: { name: 'Reptiles' } })
    expect(created.status).toBe(201)
    expect(created.json).toEqual({ id: 11, name: 'Reptiles' })
    const params = { categoryId: '11' }
    expect(call(api, 'getCategory', { params }).json).toEqual({ id: 11, name: 'Reptiles' })
    expect(
      call(api, 'replaceCategory', { params, body: { name: 'Lizards', id: 99 } }).json,
    ).toEqual({ id: 11, name: 'Lizards' })
    expect(call(api, 'updateCategory', { params, body: { description: 'Scaly' } }).json).toEqual({
      id: 11,
      name: 'Lizards',
      description: 'Scaly',
    })
    const deleted = call(api, 'deleteCategory', { params })
    expect([deleted.status, deleted.body]).toEqual([204, null])
    const gone = call(api, 'getCategory', { params })
    expect(gone.status).toBe(404)
    expect(gone.json).toEqual({
      code: 'not_found',
      status: 404,
      message: 'No record of /categories has the id "11".',
    })
    expect(call(api, 'createCategory', { body: { name: 'Next' } }).json.id).toBe(12)
  })

  it('keeps each session its own records, and a forgotten session starts from the seed again', async () => {
    const api = await open(EXTRAS)
    call(api, 'deleteCategory', { params: { categoryId: '1' }, session: 'alice' })
    expect(call(api, 'getCategory', { params: { categoryId: '1' }, session: 'alice' }).status).toBe(
      404,
    )
    expect(call(api, 'getCategory', { params: { categoryId: '1' } }).status).toBe(200)
    expect(api.changed()).toEqual(['alice'])
    api.forget('alice')
    expect(call(api, 'getCategory', { params: { categoryId: '1' }, session: 'alice' }).status).toBe(
      200,
    )
  })

  it('pages a list with limit and a cursor, Link next and X-Total-Count as listPets does', async () => {
    const api = await open(EXTRAS)
    const first = call(api, 'listCategories', { url: 'https://h.test/v1/categories?limit=4' })
    expect(first.json.map((r: { id: number }) => r.id)).toEqual([1, 2, 3, 4])
    expect(first.headers['X-Total-Count']).toBe('10')
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.Link ?? '')?.[1] ?? ''
    expect(next).toMatch(/^https:\/\/h\.test\/v1\/categories\?limit=4&cursor=/)
    const third = call(api, 'listCategories', {
      url: /<([^>]+)>/.exec(call(api, 'listCategories', { url: next }).headers.Link ?? '')?.[1],
    })
    expect(third.json.map((r: { id: number }) => r.id)).toEqual([9, 10])
    expect(third.headers.Link).toBeUndefined()
    for (const bad of ['0', '101', 'ten', '1.5']) {
      const answer = call(api, 'listCategories', {
        url: `https://h.test/v1/categories?limit=${bad}`,
      })
      expect([answer.status, answer.json.code, answer.json.details[0].field]).toEqual([
        400,
        'invalid_parameter',
        'limit',
      ])
    }
    const repeated = call(api, 'listCategories', {
      url: 'https://h.test/v1/categories?limit=1&limit=2',
    })
    expect(repeated.json.code).toBe('invalid_parameter')
    expect(
      call(api, 'listCategories', { url: 'https://h.test/v1/categories?cursor=nope' }).json.details,
    ).toEqual([{ field: 'cursor', message: 'must be a cursor from a previous page’s next link' }])
  })

  it('filters a list by a declared query parameter naming a field', async () => {
    const api = await open(THINGS)
    const red = call(api, 'listThings', {
      url: 'https://h.test/v1/things?color=red&limit=100',
    }).json
    expect(red.length).toBeGreaterThan(0)
    expect(red.every((t: { color: string }) => t.color === 'red')).toBe(true)
    expect(
      call(api, 'listThings', { url: 'https://h.test/v1/things?color=green' }).json,
    ).toMatchObject({
      code: 'invalid_parameter',
      details: [{ field: 'color', message: 'must be one of "red", "blue"' }],
    })
  })

  it('refuses bodies as createPet does: content type, malformed JSON, and every bad field named', async () => {
    const api = await open(EXTRAS)
    expect(call(api, 'createCategory', { body: { name: 'x' }, type: 'text/plain' }).json.code).toBe(
      'invalid_content_type',
    )
    expect(call(api, 'createCategory', { body: '{"name":' }).json.code).toBe('malformed_json')
    expect(call(api, 'createCategory', { body: '[1]' }).json.code).toBe('validation_failed')
    const bad = call(api, 'placeOrder', { body: { petId: '7', quantity: 11, coupon: 'X' } })
    expect(bad.status).toBe(400)
    expect(bad.json.code).toBe('validation_failed')
    expect(bad.json.details).toEqual([
      { field: 'coupon', message: 'is not an allowed field' },
      { field: 'petId', message: 'must be integer' },
      { field: 'quantity', message: 'must be <= 10' },
    ])
    expect(call(api, 'createCategory', { body: {} }).json.details).toEqual([
      { field: 'name', message: 'is required' },
    ])
    expect(call(api, 'createCategory', { body: { name: 'é'.repeat(51) } }).json.details).toEqual([
      { field: 'name', message: 'must NOT have more than 50 characters' },
    ])
    expect(call(api, 'updateCategory', { params: { categoryId: '1' }, body: {} }).json.code).toBe(
      'validation_failed',
    )
  })

  it('refuses bad path parameters with invalid_parameter before looking anything up', async () => {
    const api = await open(EXTRAS)
    for (const id of ['abc', '0', '1.5', '%E0%A4%A']) {
      const answer = call(api, 'getCategory', { params: { categoryId: id } })
      expect([answer.status, answer.json.code, answer.json.details?.[0]?.field]).toEqual([
        400,
        'invalid_parameter',
        'categoryId',
      ])
    }
    expect(call(api, 'getCategory', { params: { categoryId: '99' } }).json.code).toBe('not_found')
  })

  it('places an order: the fields the server fills are drawn, the answer valid, fetchable after', async () => {
    const api = await open(EXTRAS)
    const placed = call(api, 'placeOrder', { body: { petId: 3, quantity: 2 } })
    expect(placed.status).toBe(201)
    expect(placed.json).toMatchObject({ id: 11, petId: 3, quantity: 2 })
    expect(['placed', 'approved', 'delivered']).toContain(placed.json.status)
    expectValid(api, 'placeOrder', placed.json)
    expect(call(api, 'getOrder', { params: { orderId: '11' } }).json).toEqual(placed.json)
    // The same request on a fresh copy of the document gives the same order.
    expect(
      call(await open(EXTRAS), 'placeOrder', { body: { petId: 3, quantity: 2 } }).json,
    ).toEqual(placed.json)
  })

  it('answers the example the document gives, the same every time', async () => {
    const api = await open(EXTRAS)
    expect(call(api, 'getInventory').json).toEqual({ available: 12, pending: 3, sold: 10 })
  })

  it.each([
    [
      { get: { operationId: 'listCats', responses: {} } },
      '/pets',
      /GET \/pets \(listCats\) redefines the contract's listPets/,
    ],
    [
      { get: { responses: {} } },
      '/pets/{id}',
      /GET \/pets\/\{id\} redefines the contract's getPet/,
    ],
    [{ post: { responses: {} } }, '/v1/pets', /POST \/v1\/pets redefines the contract's createPet/],
    [
      { get: { operationId: 'getPet', responses: {} } },
      '/animals/{id}',
      /\(getPet\) redefines the contract's getPet/,
    ],
  ])('refuses a document that redefines a contract operation (%#)', async (item, path, message) => {
    const document = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: { [path]: item },
    }
    const refused = open(document)
    await expect(refused).rejects.toThrow(/^Failed to load the OpenAPI document: /)
    await expect(refused).rejects.toThrow(message)
  })

  it.each([
    ['missing.yaml', /^Failed to load the OpenAPI document: .*missing\.yaml/],
    [
      { swagger: '2.0', paths: {} },
      /"openapi" is missing; the sandbox reads OpenAPI 3\.0\.x and 3\.1\.x/,
    ],
    [{ openapi: '3.2.0', paths: {} }, /"openapi" is "3\.2\.0"/],
    [{ openapi: '3.1.0' }, /it has no "paths" object/],
    [
      { openapi: '3.1.0', paths: { '/a/{b}{c}': { get: { responses: {} } } } },
      /the path "\/a\/\{b\}\{c\}" "\{b\}\{c\}" has two parameters with nothing between them/,
    ],
  ])('refuses a document it cannot use with one clear line (%#)', async (source, message) => {
    const refused = open(source as string)
    await expect(refused).rejects.toThrow(message)
    await expect(refused).rejects.not.toThrow(/\n/)
  })
})
