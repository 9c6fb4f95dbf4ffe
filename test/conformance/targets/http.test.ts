import { afterAll, beforeAll, describe } from 'vitest'
import { defineConformanceSuite } from '../parts/define-conformance-suite.js'
import { defineSessionConformance } from '../parts/define-session-conformance.js'
import { OWN_HANDLERS } from '../parts/own-handlers.js'
import { createHttpTarget } from './http-target.js'

// The conformance suite over real HTTP, against the standalone server started on a free port.
const target = createHttpTarget()
beforeAll(() => target.start())
afterAll(() => target.stop())
defineConformanceSuite(() => target)
defineSessionConformance(() => target)

// Your own handlers inside the pipeline (contract §20): the server's `handlers` option.
const withHandlers = createHttpTarget({ handlers: OWN_HANDLERS })
describe('with your own handlers', () => {
  beforeAll(() => withHandlers.start())
  afterAll(() => withHandlers.stop())
  defineConformanceSuite(() => withHandlers, { title: 'own handlers', parts: ['ownHandlers'] })
})
