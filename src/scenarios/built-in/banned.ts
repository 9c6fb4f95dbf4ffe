import { ApiError } from '../../core/api-error.js'
import { defineScenario } from '../define-scenario.js'

/**
 * The key is banned for having kept sending while limited. The answer is the
 * one a real ban gives (see src/rate-limit): `Retry-After` and
 * `X-RateLimit-Reset` both point at the ban's end, `banMinutes` (default 15)
 * from now, rounded up to a whole second.
 */
export const bannedScenario = defineScenario({
  name: 'banned',
  description:
    'Every request answers 429 api_key_banned with X-RateLimit-Remaining: 0, and Retry-After and X-RateLimit-Reset at the end of a ban (15 minutes, or rateLimit.banMinutes).',
  respond: ({ clock, settings }) => {
    const now = clock.now()
    const endsAt = Math.ceil((now + settings.banMs) / 1000)
    return new ApiError(
      'api_key_banned',
      'This API key kept sending requests while rate limited and is banned for a while (forced by the "banned" scenario). Back off exponentially.',
      {
        headers: {
          'X-RateLimit-Remaining': '0',
          'X-RateLimit-Reset': String(endsAt),
          'Retry-After': String(Math.max(1, endsAt - Math.ceil(now / 1000))),
        },
      },
    )
  },
})
