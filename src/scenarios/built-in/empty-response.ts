import { defineScenario } from '../define-scenario.js'

/** The connection closes with no byte of answer. */
export const emptyResponseScenario = defineScenario({
  name: 'empty-response',
  description:
    'The connection closes after the request with no byte of answer; the operation does not run.',
  fault: 'empty-response',
})
