import { afterAll, beforeAll } from 'vitest'
import { defineConformanceSuite } from '../parts/define-conformance-suite.js'
import { defineSessionConformance } from '../parts/define-session-conformance.js'
import { createInProcessTarget } from './in-process-target.js'

// The conformance suite in this process, through MSW's setupServer.
const target = createInProcessTarget()
beforeAll(() => target.start())
afterAll(() => target.stop())
defineConformanceSuite(() => target)
defineSessionConformance(() => target)
