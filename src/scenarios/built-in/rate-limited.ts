import { ApiError } from '../../core/api-error.js'
import { defineScenario, type ScenarioContext } from '../define-scenario.js'

/** Seconds until the limiter's window resets, as a real exhausted window would announce it. */
const retryAfterSeconds = ({ rateLimit, clock }: ScenarioContext): number => {
  const now = clock.now()
  const reset = Number(rateLimit['X-RateLimit-Reset'])
  const resetAtMs = Number.isFinite(reset) ? reset * 1000 : now - (now % 60_000) + 60_000
  return Math.max(1, Math.ceil((resetAtMs - now) / 1000))
}

/** Every request is over the limit. */
export const rateLimitedScenario = defineScenario({
  name: 'rate-limited',
  description:
    'Every request answers 429 rate_limit_exceeded with X-RateLimit-Remaining: 0 and Retry-After until the current window resets.',
  respond: (ctx) =>
    new ApiError(
      'rate_limit_exceeded',
      'Rate limit exceeded (forced by the "rate-limited" scenario). Retry after the time given in the Retry-After header.',
      {
        headers: {
          'X-RateLimit-Remaining': '0',
          'Retry-After': String(retryAfterSeconds(ctx)),
        },
      },
    ),
})
