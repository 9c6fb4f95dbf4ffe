import { afterAll, beforeAll } from 'vitest'
import { createSandboxServer } from '../../src/server/index.js'
import { defineKeysTimelinesSuite } from './keys-timelines.suite.js'

// One server, state in memory.
const app = createSandboxServer({ maxHoldMs: 2_000 })
let origin = ''
beforeAll(async () => {
  origin = (await app.listen(0, '127.0.0.1')).url
})
afterAll(() => app.close())

defineKeysTimelinesSuite(() => [origin])
