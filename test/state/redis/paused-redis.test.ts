import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createMultiInstanceTarget,
  type MultiInstanceTarget,
} from '../../conformance/targets/redis-target.js'
import { startTestRedis, type TestRedis } from '../../support/redis-server.js'

// Issue 24, item 5: Redis paused (SIGSTOP), not gone: its connections stay
// open and nothing answers. A request waits for one command timeout, no more:
// its journal entry is written behind the answer, never waited on.
/** The documented bound: one Redis command timeout (the default, 1 s). */
const TIMEOUT_MS = 1_000
let redis: TestRedis
let target: MultiInstanceTarget

beforeAll(async () => {
  redis = await startTestRedis()
  target = createMultiInstanceTarget(1, { store: redis.url })
  await target.start()
})
afterAll(async () => {
  redis?.resume()
  await target?.stop()
  await redis?.dispose()
})

const timed = async (path: string, init: RequestInit = {}) => {
  const started = performance.now()
  const response = await fetch(`${target.origins[0]}${path}`, {
    ...init,
    headers: { authorization: 'Bearer sandbox-pro', ...init.headers },
    signal: AbortSignal.timeout(4 * TIMEOUT_MS),
  })
  const body = (await response.json()) as { code?: string }
  return { response, body, ms: performance.now() - started }
}

describe('Redis paused while serving', () => {
  it.each([
    ['a list in a session the instance knows', '/v1/pets', {}],
    [
      'a create',
      '/v1/pets',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name":"Rex","categoryId":1}',
      },
    ],
    ['a request in a session the instance has never seen', '/v1/pets?__session=paused-new', {}],
    ['a control call', '/__sandbox/requests', {}],
  ] as const)(
    'answers %s 503 after one command timeout, not two',
    async (_what, path, init) => {
      // Warm: the instance knows `default`, Redis answered.
      expect((await timed('/v1/pets?limit=1')).response.status).toBe(200)
      redis.pause()
      try {
        const { response, body, ms } = await timed(path, init as RequestInit)
        expect(response.status).toBe(503)
        expect(body.code).toBe('service_unavailable')
        expect(response.headers.get('retry-after')).toBe('1')
        // Not a speed test: each Redis call the request waited on lasted a full
        // timeout (Redis is stopped), so two such calls could never end before
        // 2 x TIMEOUT_MS; one ends at TIMEOUT_MS and answers at once.
        expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50)
        expect(ms).toBeLessThan(2 * TIMEOUT_MS)
      } finally {
        redis.resume()
      }
      // Redis runs what it was sent meanwhile, and the instance serves again.
      expect((await timed('/v1/pets?limit=1')).response.status).toBe(200)
    },
    30_000,
  )
})
