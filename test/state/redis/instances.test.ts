import { afterAll, beforeAll } from 'vitest'
import {
  createMultiInstanceTarget,
  type MultiInstanceTarget,
} from '../../conformance/targets/redis-target.js'
import { startTestRedis, type TestRedis } from '../../support/redis-server.js'
import { defineSharedStateSuite } from './shared-state.suite.js'

// Three servers on one real Redis (a redis-server this file starts), as a team
// runs them behind one address: what one does, all see; quotas and ids are exact.
let redis: TestRedis
let target: MultiInstanceTarget

beforeAll(async () => {
  redis = await startTestRedis()
  target = createMultiInstanceTarget(3, { store: redis.url })
  await target.start()
})
afterAll(async () => {
  await target?.stop()
  await redis?.dispose()
})

defineSharedStateSuite(() => target)
