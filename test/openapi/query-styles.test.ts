import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandboxServer } from '../../src/server/index.js'

// OpenAPI's query serializations (style and explode, and `content` parameters): an object or
// an array in the query is read the way the document writes it. Stripe's `scope` is a
// `deepObject` (`scope[type]=account`), refused as missing before.
const scope = {
  type: 'object',
  required: ['type'],
  properties: { type: { type: 'string', enum: ['account', 'user'] }, user: { type: 'string' } },
}
const listOf = (parameter: Record<string, unknown>) => ({
  get: {
    parameters: [{ in: 'query', required: true, ...parameter }],
    responses: {
      '200': {
        description: 'ok',
        content: { 'application/json': { schema: { type: 'object', properties: {} } } },
      },
    },
  },
})
const document = {
  openapi: '3.0.3',
  info: { title: 'query styles', version: '1' },
  paths: {
    '/deep': listOf({ name: 'scope', style: 'deepObject', explode: true, schema: scope }),
    '/form': listOf({ name: 'scope', schema: scope }),
    '/form-flat': listOf({ name: 'scope', explode: false, schema: scope }),
    '/json': listOf({ name: 'scope', content: { 'application/json': { schema: scope } } }),
    '/pipes': listOf({
      name: 'ids',
      style: 'pipeDelimited',
      schema: { type: 'array', items: { type: 'integer' } },
    }),
    '/spaces': listOf({
      name: 'ids',
      style: 'spaceDelimited',
      schema: { type: 'array', items: { type: 'integer' } },
    }),
  },
}

const app = createSandboxServer({ openapi: document })
let base = ''
beforeAll(async () => {
  base = `${(await app.listen(0, '127.0.0.1')).url}/v1`
})
afterAll(() => app.close())

const get = async (pathAndQuery: string) => {
  const answer = await fetch(`${base}${pathAndQuery}`, {
    headers: { authorization: 'Bearer sandbox-enterprise' },
  })
  const body = (await answer.json()) as {
    code?: string
    details?: { field: string; message: string }[]
  }
  return { status: answer.status, code: body.code, details: body.details }
}

describe('query parameters as the document writes them', () => {
  it('reads a deepObject: scope[type]=account', async () => {
    expect((await get('/deep?scope%5Btype%5D=account&scope%5Buser%5D=u1')).status).toBe(200)
    expect((await get('/deep?scope[type]=user')).status).toBe(200)
    expect(await get('/deep?scope[type]=nobody')).toMatchObject({
      status: 400,
      code: 'invalid_parameter',
      details: [{ field: 'scope' }],
    })
    expect(await get('/deep?scope[user]=u1')).toMatchObject({
      status: 400,
      details: [{ field: 'scope' }],
    })
    expect(await get('/deep')).toMatchObject({
      status: 400,
      details: [{ field: 'scope', message: 'is required' }],
    })
    // A repeated property is refused, a `__proto__` field stays an ordinary (unknown) one.
    expect((await get('/deep?scope[type]=user&scope[type]=account')).status).toBe(400)
    expect((await get('/deep?scope[type]=user&scope[__proto__]=x')).status).toBe(200)
  })

  it('reads form with explode (the default): each property its own pair', async () => {
    expect((await get('/form?type=account&user=u1')).status).toBe(200)
    expect((await get('/form?type=nobody')).status).toBe(400)
    expect(await get('/form?user=u1')).toMatchObject({ status: 400, details: [{ field: 'scope' }] })
  })

  it('reads form without explode: scope=type,account', async () => {
    expect((await get('/form-flat?scope=type,account,user,u1')).status).toBe(200)
    expect((await get('/form-flat?scope=type,nobody')).status).toBe(400)
  })

  it('reads a content: application/json parameter as JSON text', async () => {
    expect((await get(`/json?scope=${encodeURIComponent('{"type":"account"}')}`)).status).toBe(200)
    expect(await get('/json?scope=nope')).toMatchObject({
      status: 400,
      code: 'invalid_parameter',
      details: [{ field: 'scope', message: 'must be JSON text' }],
    })
    expect((await get(`/json?scope=${encodeURIComponent('{"type":"x"}')}`)).status).toBe(400)
  })

  it('splits pipeDelimited and spaceDelimited arrays', async () => {
    expect((await get('/pipes?ids=1|2|3')).status).toBe(200)
    expect(await get('/pipes?ids=1|x')).toMatchObject({ status: 400, details: [{ field: 'ids' }] })
    expect((await get('/spaces?ids=1%202')).status).toBe(200)
    expect((await get('/spaces?ids=1,2')).status).toBe(400)
  })
})
