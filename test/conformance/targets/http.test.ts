import { afterAll, beforeAll } from 'vitest'
import { defineConformanceSuite } from '../parts/define-conformance-suite.js'
import { defineSessionConformance } from '../parts/define-session-conformance.js'
import { createHttpTarget } from './http-target.js'

// The conformance suite over real HTTP, against the standalone server started on a free port.
const target = createHttpTarget()
beforeAll(() => target.start())
afterAll(() => target.stop())
defineConformanceSuite(() => target)
defineSessionConformance(() => target)
