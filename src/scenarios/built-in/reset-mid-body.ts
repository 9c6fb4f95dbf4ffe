import { RESET_PAUSE_MS } from '../../faults/reset-mid-body.js'
import { defineScenario } from '../define-scenario.js'
import { readDelayParam } from '../read-delay-param.js'

/** Half an answer, then a TCP reset. */
export const resetMidBodyScenario = defineScenario({
  name: 'reset-mid-body',
  description:
    'The operation runs; its answer is sent up to half its body, then, 100 ms later (__delay=MS, 0-30000), the connection is reset (TCP RST): reading the body fails.',
  fault: 'reset-mid-body',
  faultSetting: (ctx) => readDelayParam(ctx, RESET_PAUSE_MS),
})
