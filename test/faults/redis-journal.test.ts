import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandboxServer, type SandboxServer } from '../../src/server/index.js'
import { startTestRedis, type TestRedis } from '../support/redis-server.js'
import { rawExchange, requestText } from './raw-exchange.js'

// A lost 201 on a shared store: the Redis journal keeps it with delivered: false, and the pet stays.
let redis: TestRedis
let app: SandboxServer
let origin = ''
beforeAll(async () => {
  redis = await startTestRedis()
  app = createSandboxServer({ store: redis.url, maxHoldMs: 2_000 })
  origin = (await app.listen(0, '127.0.0.1')).url
}, 60_000)
afterAll(async () => {
  await app?.close()
  await redis?.dispose()
})

describe('faults on the Redis store', () => {
  it('journals commit-then-drop as a 201 not delivered, and the pet exists', async () => {
    const seen = await rawExchange(
      origin,
      requestText('POST', '/v1/pets?__scenario=commit-then-drop', {
        body: JSON.stringify({ name: 'Redis Rex', categoryId: 1 }),
      }),
    )
    expect(seen.bytes.byteLength).toBe(0)
    const requests = (await (await fetch(`${origin}/__sandbox/requests`)).json()) as {
      entries?: unknown[]
    }
    const entries = (Array.isArray(requests) ? requests : (requests.entries ?? [])) as {
      status: number | null
      fault?: string
      delivered: boolean
      response: { body: string } | null
    }[]
    const entry = entries.find((e) => e.fault === 'commit-then-drop')
    expect(entry).toMatchObject({ status: 201, delivered: false })
    const id = (JSON.parse(entry?.response?.body ?? '{}') as { id: number }).id
    const read = await rawExchange(origin, requestText('GET', `/v1/pets/${id}`))
    expect(read.status).toBe(200)
  })
})
