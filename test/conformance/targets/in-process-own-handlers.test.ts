import { afterAll, beforeAll } from 'vitest'
import { defineConformanceSuite } from '../parts/define-conformance-suite.js'
import { OWN_HANDLERS } from '../parts/own-handlers.js'
import { createInProcessTarget } from './in-process-target.js'

// Your own handlers inside the pipeline (contract §20), in this process through MSW's
// setupServer (a file of its own: two setupServer in one process would both intercept).
const target = createInProcessTarget({ handlers: OWN_HANDLERS })
beforeAll(() => target.start())
afterAll(() => target.stop())
defineConformanceSuite(() => target, { title: 'own handlers', parts: ['ownHandlers'] })
