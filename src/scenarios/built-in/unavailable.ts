import { ApiError } from '../../http/api-error.js'
import { defineScenario } from '../define-scenario.js'

/** Seconds the `unavailable` scenario asks clients to wait. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5

/** The service is down for a while. */
export const unavailableScenario = defineScenario({
  name: 'unavailable',
  description:
    'Every request answers 503 service_unavailable with Retry-After: 5; nothing is read or written.',
  respond: () =>
    new ApiError(
      'service_unavailable',
      'The service is temporarily unavailable (forced by the "unavailable" scenario). Retry after the time given in the Retry-After header.',
      { headers: { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) } },
    ),
})
