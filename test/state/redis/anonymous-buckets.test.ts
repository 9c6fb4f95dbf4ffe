import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ANONYMOUS_BUCKET_CAP } from '../../../src/rate-limit/rate-limiter.js'
import { createSandboxServer, type SandboxServer } from '../../../src/server/index.js'
import { startTestRedis, type TestRedis } from '../../support/redis-server.js'

// Issue 24, item 6: anonymous buckets on Redis are capped as in memory
// (10,000 per session, the least recently used go first), and named as in
// memory (one per IPv4 address, one per IPv6 /64).
let redis: TestRedis
let admin: Redis
let app: SandboxServer

beforeAll(async () => {
  redis = await startTestRedis()
  admin = new Redis(redis.url)
  // 500 requests at once on a loaded machine can wait on Redis past the default command
  // timeout (then 503 store_unavailable, tested in store-timeout tests): this file is about caps.
  app = createSandboxServer({ store: { url: redis.url, prefix: 'anon-cap:', timeoutMs: 30_000 } })
  await app.sandbox.ready
})
afterAll(async () => {
  admin?.disconnect()
  await app?.sandbox.disconnect()
  await redis?.dispose()
})

/** A keyless request from one client address: its 401 carries the anonymous bucket's quota. */
const fromAddress = async (clientAddress: string): Promise<string | undefined> => {
  const response = await app.sandbox.handle({
    method: 'GET',
    url: 'http://sandbox.test/v1/pets',
    headers: {},
    body: null,
    clientAddress,
  })
  expect(response?.status).toBe(401)
  return response?.headers['X-RateLimit-Remaining']
}

const address = (i: number): string => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`

describe('anonymous buckets on Redis', () => {
  it(`keeps at most ${ANONYMOUS_BUCKET_CAP} of them, forgetting the least recently used first`, async () => {
    const callers = ANONYMOUS_BUCKET_CAP + 50
    for (let from = 0; from < callers; from += 500)
      await Promise.all(
        Array.from({ length: Math.min(500, callers - from) }, (_, i) =>
          fromAddress(address(from + i)),
        ),
      )
    const buckets = (await admin.hkeys('anon-cap:{default}:rl')).filter((f) =>
      f.startsWith('anon:'),
    )
    expect(buckets).toHaveLength(ANONYMOUS_BUCKET_CAP)
    expect(await admin.zcard('anon-cap:{default}:anon')).toBe(ANONYMOUS_BUCKET_CAP)
    // The first callers' buckets went: they start afresh; the last ones' are kept.
    expect(await fromAddress(address(0))).toBe('59')
    expect(await fromAddress(address(callers - 1))).toBe('58')
  }, 60_000)

  it('counts every address of one IPv6 /64 in one bucket, an IPv4-mapped address as its IPv4 one', async () => {
    expect(await fromAddress('2001:db8:7:7::1')).toBe('59')
    expect(await fromAddress('2001:db8:7:7:ffff::2')).toBe('58')
    expect(await fromAddress('192.0.2.77')).toBe('59')
    expect(await fromAddress('::ffff:192.0.2.77')).toBe('58')
  })
})
