import { describe, expect, it } from 'vitest'
import { checkDocumentAnswer } from '../../src/openapi/check-document-answer.js'
import {
  type CompiledOperation,
  compileOpenApiOperations,
} from '../../src/openapi/compile-openapi-operations.js'
import { loadOpenApiDocument } from '../../src/openapi/load-openapi-document.js'

// The two rules of an OpenAPI document's operations (decision 0050), on the example
// document and on one with ranges, `default` and a 3.0 `nullable`.
const EXTRAS = new URL('../../examples/openapi/petstore-extras.yaml', import.meta.url).pathname
const operationsOf = async (source: string | Record<string, unknown>) => {
  const document = await loadOpenApiDocument(source)
  const ops = compileOpenApiOperations(document, { basePath: '/v1' })
  return (id: string): CompiledOperation => {
    const op = ops.find((o) => o.id === id)
    if (op === undefined) throw new Error(`no ${id}`)
    return op
  }
}

const RANGES = {
  openapi: '3.0.3',
  paths: {
    '/reports/{reportId}': {
      get: {
        operationId: 'getReport',
        parameters: [{ name: 'reportId', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': {
            description: 'ok',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['title'],
                  properties: { title: { type: 'string', nullable: true } },
                },
              },
            },
          },
          '4XX': {
            description: 'a client error',
            content: {
              'application/json': {
                schema: { type: 'object', required: ['problem'], properties: { problem: {} } },
              },
            },
          },
          default: { description: 'anything else' },
        },
      },
    },
  },
}

describe('checkDocumentAnswer', () => {
  it('passes the answers the document declares, a 204 without a body, and the sandbox’s own statuses', async () => {
    const op = await operationsOf(EXTRAS)
    const category = JSON.stringify({ id: 1, name: 'Fish ✓ 🐟' })
    expect(
      checkDocumentAnswer(op('getCategory'), { method: 'GET', status: 200, body: category }),
    ).toEqual([])
    expect(
      checkDocumentAnswer(op('deleteCategory'), { method: 'DELETE', status: 204, body: '' }),
    ).toEqual([])
    // 404 not_found and 400 are the sandbox's own for a collection's item; 401 and 429 the pipeline's.
    for (const status of [400, 401, 404, 429, 503, 504])
      expect(
        checkDocumentAnswer(op('getCategory'), {
          method: 'GET',
          status,
          body: '{"code":"x","message":"y","status":1}',
        }),
        String(status),
      ).toEqual([])
    // An empty list and HEAD are fine.
    expect(
      checkDocumentAnswer(op('listCategories'), { method: 'GET', status: 200, body: '[]' }),
    ).toEqual([])
    expect(
      checkDocumentAnswer(op('listCategories'), { method: 'HEAD', status: 200, body: null }),
    ).toEqual([])
  })

  it('names a status the document does not declare, with the ones it does', async () => {
    const op = await operationsOf(EXTRAS)
    expect(
      checkDocumentAnswer(op('getInventory'), { method: 'GET', status: 404, body: '{}' }),
    ).toEqual([
      {
        rule: 'spec.document.status',
        message: 'getInventory answered 404, a status its document does not declare (200).',
      },
    ])
    expect(
      checkDocumentAnswer(op('placeOrder'), { method: 'POST', status: 200, body: '{}' })[0]?.rule,
    ).toBe('spec.document.status')
  })

  it('names each field a body breaks, up to five, and counts the rest', async () => {
    const op = await operationsOf(EXTRAS)
    const rows = Array.from({ length: 4 }, (_, i) => ({ id: `x${i}`, name: 7 }))
    const [violation, ...more] = checkDocumentAnswer(op('listCategories'), {
      method: 'GET',
      status: 200,
      body: JSON.stringify(rows),
    })
    expect(more).toEqual([])
    expect(violation).toEqual({
      rule: 'spec.document.body',
      message:
        'listCategories answered 200 with a body its document does not allow: /0/id must be integer; /0/name must be string; /1/id must be integer; /1/name must be string; /2/id must be integer (and 3 more).',
    })
    const order = { id: 1, petId: 1, quantity: 11, status: 'lost', placedAt: 'today', extra: 1 }
    const [bad] = checkDocumentAnswer(op('getOrder'), {
      method: 'GET',
      status: 200,
      body: JSON.stringify(order),
    })
    expect(bad?.message).toContain('(body) must NOT have additional properties (extra)')
    expect(bad?.message).toContain(
      '/status must be equal to one of the allowed values (["placed","approved","delivered"])',
    )
  })

  it('leaves a body that is not JSON to spec.responses.json, and a wrong type of the root is named', async () => {
    const op = await operationsOf(EXTRAS)
    expect(
      checkDocumentAnswer(op('getCategory'), { method: 'GET', status: 200, body: '<html>' }),
    ).toEqual([])
    expect(
      checkDocumentAnswer(op('getCategory'), { method: 'GET', status: 200, body: '[]' })[0]
        ?.message,
    ).toBe(
      'getCategory answered 200 with a body its document does not allow: (body) must be object.',
    )
  })

  it('matches a range (4XX) before default, and default accepts any other status', async () => {
    const op = await operationsOf(RANGES)
    const report = op('getReport')
    expect(
      checkDocumentAnswer(report, { method: 'GET', status: 200, body: '{"title":null}' }),
    ).toEqual([])
    expect(
      checkDocumentAnswer(report, { method: 'GET', status: 418, body: '{"code":"teapot"}' })[0]
        ?.message,
    ).toBe(
      "getReport answered 418 with a body its document does not allow: (body) must have required property 'problem'.",
    )
    expect(checkDocumentAnswer(report, { method: 'GET', status: 302, body: '' })).toEqual([])
  })
})
