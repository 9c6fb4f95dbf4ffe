import type { PlanLimits } from '../contract/plans.js'

/** The length of the two windows, in ms. */
export const MINUTE_MS = 60_000
export const DAY_MS = 86_400_000
const MINUTE = MINUTE_MS
const DAY = DAY_MS

/**
 * When the current window of this kind ends: the next UTC minute or UTC day.
 *
 * @example
 * windowEnd(90_000, 'minute') // 120_000
 */
export const windowEnd = (now: number, window: 'minute' | 'day'): number => {
  const size = window === 'minute' ? MINUTE : DAY
  return Math.floor(now / size) * size + size
}

/**
 * When a ban starting now ends: `banMs` later, rounded up to a whole second so
 * that `X-RateLimit-Reset` and `Retry-After` name the same moment.
 *
 * @example
 * banEnd(1_500, 60_000) // 62_000
 */
export const banEnd = (now: number, banMs: number): number => Math.ceil((now + banMs) / 1000) * 1000

/** A bucket's two windows at one moment, after the request was counted. */
export interface WindowState {
  limits: PlanLimits
  minuteStart: number
  dayStart: number
  /** Requests left in the minute window (may be <= 0). */
  minuteLeft: number
  /** Requests left in the day window (may be <= 0). */
  dayLeft: number
  /** Epoch ms a ban ends, when the bucket is banned. */
  banEndsAt?: number | undefined
}

/**
 * The `X-RateLimit-*` headers for the window with the fewest requests left; a
 * tie goes to the minute, except when both are spent: then the day, because
 * the minute's end would not let the client through (spec, Limits rule 2: the
 * reset is "the moment the limit resets"). During a ban, `Remaining` is 0 and
 * `Reset` is the ban's end, the same moment `Retry-After` names.
 *
 * @example
 * describeWindow({ limits: { perMinute: 60, perDay: 1000 }, minuteStart: 0, dayStart: 0, minuteLeft: 59, dayLeft: 999 })
 * // { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '59', 'X-RateLimit-Reset': '60' }
 */
export const describeWindow = (state: WindowState): Record<string, string> => {
  const minuteLeft = Math.max(0, state.minuteLeft)
  const dayLeft = Math.max(0, state.dayLeft)
  const useDay = dayLeft < minuteLeft || dayLeft === 0
  const resetAt = state.banEndsAt ?? (useDay ? state.dayStart + DAY : state.minuteStart + MINUTE)
  const remaining = state.banEndsAt === undefined ? (useDay ? dayLeft : minuteLeft) : 0
  return {
    'X-RateLimit-Limit': String(useDay ? state.limits.perDay : state.limits.perMinute),
    'X-RateLimit-Remaining': String(remaining),
    'X-RateLimit-Reset': String(Math.ceil(resetAt / 1000)),
  }
}

/**
 * Whole seconds from `now` until `resetAt`, never less than 1: a client told
 * "0" would retry at once and be refused again.
 *
 * @example
 * retryAfterSeconds(60_000, 59_999) // 1
 */
export const retryAfterSeconds = (resetAt: number, now: number): number =>
  Math.max(1, Math.ceil((resetAt - now) / 1000))
