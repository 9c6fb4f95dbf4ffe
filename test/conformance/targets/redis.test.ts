import { afterAll, beforeAll } from 'vitest'
import { startTestRedis, type TestRedis } from '../../support/redis-server.js'
import { defineConformanceSuite } from '../parts/define-conformance-suite.js'
import { createMultiInstanceTarget, type MultiInstanceTarget } from './redis-target.js'

// The conformance suite over real HTTP against two servers on one real Redis,
// requests and control calls alternating between them.
let redis: TestRedis
let target: MultiInstanceTarget
beforeAll(async () => {
  redis = await startTestRedis()
  target = createMultiInstanceTarget(2, { store: redis.url })
  await target.start()
})
afterAll(async () => {
  await target?.stop()
  await redis?.dispose()
})
defineConformanceSuite(() => target)
