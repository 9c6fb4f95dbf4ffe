import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandboxServer, type SandboxServer } from '../../../src/server/index.js'
import { startTestRedis, type TestRedis } from '../../support/redis-server.js'
import { defineOpenApiRecordsSuite, send } from './openapi-records.suite.js'

// Two servers given the same document on one real Redis (a redis-server this
// file starts): the document's records are one sandbox's (decision 0049).
const DOCUMENT = 'examples/openapi/petstore-extras.yaml'
const THINGS = 'test/openapi/fixtures/things-3.0.json'

let redis: TestRedis
let apps: SandboxServer<string>[] = []
const origins: string[] = []

const start = async (options: Parameters<typeof createSandboxServer>[0]): Promise<string> => {
  const app = createSandboxServer({ store: redis.url, ...options })
  apps.push(app)
  return (await app.listen(0)).url
}

beforeAll(async () => {
  redis = await startTestRedis()
  origins.push(await start({ openapi: DOCUMENT }), await start({ openapi: DOCUMENT }))
})
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()))
  apps = []
  await redis?.dispose()
})

defineOpenApiRecordsSuite(() => ({ a: origins[0] as string, b: origins[1] as string }))

describe('the document’s records in Redis', () => {
  it('shares records with uuid ids (a 3.0 document) between instances', async () => {
    const a = await start({ openapi: THINGS, store: { url: redis.url, prefix: 'things:' } })
    const b = await start({ openapi: THINGS, store: { url: redis.url, prefix: 'things:' } })
    const created = await send(a, '/v1/things', {
      method: 'POST',
      body: { label: 'ünï', color: 'red' },
    })
    expect(created.status).toBe(201)
    expect(created.json.thingId).toBe('00000000-0000-4000-8000-00000000000b')
    const read = await send(b, `/v1/things/${created.json.thingId}`)
    expect([read.status, read.json]).toEqual([200, created.json])
    const listed = await send(b, '/v1/things?limit=100')
    expect(listed.json.at(-1)).toEqual(created.json)
  })

  it('answers a malformed stored record with the contract’s Error, and a reset mends it', async () => {
    const [a, b] = origins as [string, string]
    await fetch(`${a}/__sandbox/reset`, { method: 'POST' })
    await send(a, '/v1/categories/2', { method: 'PATCH', body: { name: 'Patched' } })
    const client = new Redis(redis.url)
    try {
      const keys = await client.keys('petstore-sandbox:{default}:st:oa:*:/categories')
      expect(keys).toHaveLength(1)
      const key = keys[0] as string
      for (const [value, reason] of [
        ['{not json', 'its place is not a positive integer'],
        ['{"seq":2,"value":{"id":2,"name":42}}', 'it is not valid against its schema'],
        ['{"seq":2,"value":{"id":3,"name":"Other"}}', 'its id does not match'],
        ['{"seq":2,"value":[1]}', 'it is not a JSON object'],
      ] as const) {
        await client.hset(key, '2', value)
        for (const path of ['/v1/categories/2', '/v1/categories']) {
          const answer = await send(b, path)
          expect([answer.status, answer.json.code, answer.json.status]).toEqual([
            500,
            'internal_error',
            500,
          ])
          expect(answer.json.message).toContain(reason)
        }
      }
    } finally {
      client.disconnect()
    }
    await fetch(`${b}/__sandbox/reset`, { method: 'POST' })
    expect((await send(a, '/v1/categories/2')).status).toBe(200)
  })

  it('keeps a changed document’s records apart from the old one’s', async () => {
    const [a] = origins as [string]
    await fetch(`${a}/__sandbox/reset`, { method: 'POST' })
    await send(a, '/v1/categories', { method: 'POST', body: { name: 'Old document' } })
    // The same categories with another record schema: another fingerprint, other keys.
    const { loadOpenApiDocument } = await import('../../../src/openapi/load-openapi-document.js')
    // structuredClone keeps the dereferenced document's shared schema objects shared.
    const document = structuredClone(await loadOpenApiDocument(DOCUMENT)) as unknown as Record<
      string,
      unknown
    >
    const { schemas } = (
      document as unknown as {
        components: { schemas: { Category: { properties: Record<string, unknown> } } }
      }
    ).components
    schemas.Category.properties.note = { type: 'string' }
    const changed = await start({ openapi: document })
    expect((await send(changed, '/v1/categories/11')).status).toBe(404)
    expect((await send(a, '/v1/categories/11')).json.name).toBe('Old document')
  })
})
