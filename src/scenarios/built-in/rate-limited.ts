import { rateLimited } from '../../http/errors.js'
import { retryAfterSeconds, windowEnd } from '../../rate-limit/describe-window.js'
import { defineScenario } from '../define-scenario.js'

/** Every request is over the limit. */
export const rateLimitedScenario = defineScenario({
  name: 'rate-limited',
  description:
    'Every request answers 429 rate_limit_exceeded with X-RateLimit-Remaining: 0 and Retry-After until the current window resets.',
  // The real limiter's headers name the window that would reset: retry then.
  respond: ({ rateLimit, clock }) => {
    const now = clock.now()
    const reset = Number(rateLimit['X-RateLimit-Reset']) * 1000
    return rateLimited('rate_limit_exceeded', {
      forcedBy: 'rate-limited',
      retryAfterSeconds: retryAfterSeconds(
        Number.isFinite(reset) ? reset : windowEnd(now, 'minute'),
        now,
      ),
      headers: { 'X-RateLimit-Remaining': '0' },
    })
  },
})
