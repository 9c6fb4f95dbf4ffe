import { PLAN_LIMITS } from '../contract/plans.js'
import type { ApiError } from '../http/api-error.js'
import { rateLimited } from '../http/errors.js'
import type { RateLimitDecision } from '../rate-limit/rate-limiter.js'
import type { SessionState } from '../state/sandbox-state.js'
import type { Caller } from './authenticate.js'

/**
 * Stage 3: the rate limit. Counts the request against the caller's bucket
 * (an anonymous caller's has the free plan's limits) and returns the
 * `X-RateLimit-*` headers every answer carries, and the 429 to answer when
 * the request is refused.
 * Only keys can be banned: an anonymous bucket may be shared by every caller
 * (decision 0004).
 *
 * @example
 * const { headers, refusal } = await admit(session, caller, now)
 * if (refusal !== undefined) return refusal.toResponse()
 */
export const admit = (
  session: SessionState,
  caller: Caller,
  now: number,
): Admission | Promise<Admission> => {
  const decision = session.take({
    bucket: caller.bucket,
    limits: caller.key?.limits ?? PLAN_LIMITS.free,
    now,
    bannable: caller.key !== undefined,
  })
  // Synchronous when the session is (memory): no microtask on the hot path.
  return decision instanceof Promise ? decision.then(toAdmission) : toAdmission(decision)
}

/** The rate limit's verdict on one request. */
export interface Admission {
  headers: Record<string, string>
  refusal: ApiError | undefined
}

const toAdmission = (decision: RateLimitDecision): Admission => ({
  headers: decision.headers,
  refusal: decision.allowed
    ? undefined
    : rateLimited(decision.code ?? 'rate_limit_exceeded', {
        retryAfterSeconds: decision.retryAfterSeconds ?? 1,
      }),
})

/**
 * The rate-limit headers of the caller's bucket without counting a request
 * (an OPTIONS answer uses no quota).
 *
 * @example
 * const headers = await peekQuota(session, caller, now)
 */
export const peekQuota = async (
  session: SessionState,
  caller: Caller,
  now: number,
): Promise<Record<string, string>> =>
  (
    await session.peek({
      bucket: caller.bucket,
      limits: caller.key?.limits ?? PLAN_LIMITS.free,
      now,
    })
  ).headers
