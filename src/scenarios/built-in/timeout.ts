import { defineScenario } from '../define-scenario.js'
import { MAX_DELAY_MS, readDelayParam } from '../read-delay-param.js'

/** No answer: the request is held, then the connection fails. */
export const timeoutScenario = defineScenario({
  name: 'timeout',
  description:
    'No answer: the request is held 30000 ms (__delay=MS, 0-30000, sets the hold), then the connection fails; the operation does not run.',
  delayMs: (ctx) => readDelayParam(ctx, MAX_DELAY_MS),
  fault: 'timeout',
})
