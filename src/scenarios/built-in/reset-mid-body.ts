import { defineScenario } from '../define-scenario.js'

/** Half an answer, then a TCP reset. */
export const resetMidBodyScenario = defineScenario({
  name: 'reset-mid-body',
  description:
    'The operation runs; its answer is sent up to half its body, then the connection is reset (TCP RST): reading the body fails.',
  fault: 'reset-mid-body',
})
