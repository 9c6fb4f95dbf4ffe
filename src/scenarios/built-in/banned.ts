import { rateLimited } from '../../http/errors.js'
import { banEnd, retryAfterSeconds } from '../../rate-limit/describe-window.js'
import { defineScenario } from '../define-scenario.js'

/**
 * The key is banned for having kept sending while limited. The answer is the
 * one a real ban gives (the limiter's own arithmetic): `Retry-After` and
 * `X-RateLimit-Reset` both point at the ban's end, `banMinutes` (default 15)
 * from now, rounded up to a whole second.
 */
export const bannedScenario = defineScenario({
  name: 'banned',
  description:
    'Every request answers 429 api_key_banned with X-RateLimit-Remaining: 0, and Retry-After and X-RateLimit-Reset at the end of a ban (15 minutes, or rateLimit.banMinutes).',
  respond: ({ clock, settings }) => {
    const now = clock.now()
    const endsAt = banEnd(now, settings.banMs)
    return rateLimited('api_key_banned', {
      forcedBy: 'banned',
      retryAfterSeconds: retryAfterSeconds(endsAt, now),
      headers: { 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(endsAt / 1000) },
    })
  },
})
