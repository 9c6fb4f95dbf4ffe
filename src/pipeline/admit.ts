import { PLAN_LIMITS } from '../contract/plans.js'
import type { ApiError } from '../http/api-error.js'
import { rateLimited } from '../http/errors.js'
import type { SandboxResponse } from '../http/types.js'
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
 * if (refusal !== undefined) return refusal.response
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
  refusal: Refusal | undefined
}

/** A 429 (`rate_limit_exceeded` or `api_key_banned`): the error, and its answer (frozen, shared). */
export interface Refusal {
  error: ApiError
  response: SandboxResponse
}

// A client hammering past its quota gets the same few refusals over and over (one per code
// and Retry-After): each is made once, not an Error and a JSON body per request (decision 0039).
const REFUSALS_KEPT = 512
const refusals = {
  rate_limit_exceeded: new Map<number, Refusal>(),
  api_key_banned: new Map<number, Refusal>(),
}
const refusalOf = (
  code: 'rate_limit_exceeded' | 'api_key_banned',
  retryAfterSeconds: number,
): Refusal => {
  const made = refusals[code]
  let refusal = made.get(retryAfterSeconds)
  if (refusal === undefined) {
    const error = rateLimited(code, { retryAfterSeconds })
    const response = error.toResponse()
    Object.freeze(response.headers)
    refusal = { error, response: Object.freeze(response) }
    if (made.size >= REFUSALS_KEPT) made.clear()
    made.set(retryAfterSeconds, refusal)
  }
  return refusal
}

const toAdmission = (decision: RateLimitDecision): Admission => ({
  headers: decision.headers,
  refusal: decision.allowed
    ? undefined
    : refusalOf(decision.code ?? 'rate_limit_exceeded', decision.retryAfterSeconds ?? 1),
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
