import { ApiError } from '../../core/api-error.js'
import { defineScenario } from '../define-scenario.js'

/** How long a real ban lasts (contract §3): 15 minutes. */
const BAN_SECONDS = 15 * 60

/** The key is banned for having kept sending while limited. */
export const bannedScenario = defineScenario({
  name: 'banned',
  description:
    'Every request answers 429 api_key_banned with X-RateLimit-Remaining: 0 and Retry-After: 900 (a 15-minute ban).',
  respond: () =>
    new ApiError(
      'api_key_banned',
      'This API key kept sending requests while rate limited and is banned for a while (forced by the "banned" scenario). Back off exponentially.',
      { headers: { 'X-RateLimit-Remaining': '0', 'Retry-After': String(BAN_SECONDS) } },
    ),
})
