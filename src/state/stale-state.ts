import { ApiError } from '../http/api-error.js'

/**
 * Thrown by a shared state (Redis) when what a request read from the
 * instance's cache (the session's scenario, clock, keys) was changed by
 * another instance meanwhile. Nothing was counted or written; the state has
 * refreshed its cache, and the pipeline runs the request again. Should it
 * keep happening, the request is answered 503 `service_unavailable`.
 * See docs/decisions/0014-redis-shared-state.md.
 */
export class StaleStateError extends ApiError {
  constructor() {
    super(
      'service_unavailable',
      'The sandbox state changed while this request was answered. Retry it.',
      { headers: { 'Retry-After': '1' } },
    )
    this.name = 'StaleStateError'
  }
}

/** How often the pipeline runs one request again after a StaleStateError. */
export const STALE_RETRIES = 3
