import { defineScenario } from '../define-scenario.js'
import { readDelayParam } from '../read-delay-param.js'

/** The delay of the `slow` scenario without `__delay`. */
export const SLOW_DELAY_MS = 2_000

/** Correct answers, late. */
export const slowScenario = defineScenario({
  name: 'slow',
  description:
    'The default answers on the default store, each delayed 2000 ms; __delay=MS (0-30000) sets the delay.',
  delayMs: (ctx) => readDelayParam(ctx, SLOW_DELAY_MS),
  // With an upstream, the real answer, late.
  forwards: true,
})
