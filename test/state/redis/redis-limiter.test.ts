import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe } from 'vitest'
import { createRedisLimiter } from '../../../src/state/redis/redis-limits.js'
import { defineLimiterCases } from '../../rate-limit/limiter-cases.js'
import { startTestRedis, type TestRedis } from '../../support/redis-server.js'

// The Lua limiter answers the in-memory limiter's whole case table alike
// (windows, boundaries, bans), on a real redis-server.
let server: TestRedis
let redis: Redis
let n = 0
beforeAll(async () => {
  server = await startTestRedis()
  redis = new Redis(server.url)
})
afterAll(async () => {
  await redis?.quit()
  await server?.dispose()
})

describe('the Redis (Lua) limiter', () => {
  defineLimiterCases((options) => createRedisLimiter(redis, `limiter-case:${n++}`, options))
})
