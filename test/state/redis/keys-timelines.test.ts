import { afterAll, beforeAll } from 'vitest'
import {
  createMultiInstanceTarget,
  type MultiInstanceTarget,
} from '../../conformance/targets/redis-target.js'
import { defineKeysTimelinesSuite } from '../../server/keys-timelines.suite.js'
import { startTestRedis, type TestRedis } from '../../support/redis-server.js'

// Two servers on one real Redis: every call goes to the next, so scenario keys,
// their revocations, sticky timelines and the starts of per-request ones live in the store.
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

defineKeysTimelinesSuite(() => target.origins)
