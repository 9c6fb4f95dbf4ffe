import type { PlanLimits } from '../contract/plans.js'
import { describeWindow, retryAfterSeconds } from './describe-window.js'
import { type RateLimitOptions, resolveRateLimitOptions } from './rate-limit-options.js'

/** One request to count: which bucket, its quota, and the time by the sandbox clock. */
export interface TakeRequest {
  /** The bucket's name, e.g. `key:sandbox-free` or `anon:203.0.113.7`. */
  bucket: string
  limits: PlanLimits
  /** Epoch milliseconds by the sandbox clock. */
  now: number
  /** Whether repeated rejections ban the bucket. Keys can be banned; anonymous buckets cannot. */
  bannable: boolean
}

/** The outcome of one request against a bucket's quota. */
export interface RateLimitDecision {
  allowed: boolean
  /** Why it was refused (only when not allowed). */
  code?: 'rate_limit_exceeded' | 'api_key_banned' | undefined
  /** Whole seconds (>= 1) until a retry can succeed (only when not allowed). */
  retryAfterSeconds?: number | undefined
  /** `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset` for the tighter window. */
  headers: Record<string, string>
}

export interface RateLimiter {
  /** Admits a request when both windows have room and consumes one unit of each. Synchronous, so exact under concurrency. */
  take(request: TakeRequest): RateLimitDecision
  /** Forgets every bucket: fresh quotas, no bans. */
  reset(): void
  /** How many buckets are held (for tests and the benchmark). */
  readonly size: number
}

const MINUTE = 60_000
const DAY = 86_400_000

/** Flat numbers rather than nested window objects: 100,000 buckets stay small. */
interface Bucket {
  minuteStart: number
  minuteUsed: number
  minuteRejected: number
  dayStart: number
  dayUsed: number
  dayRejected: number
  /** Epoch ms the ban ends; 0 when the bucket was never banned. */
  bannedUntil: number
}

const toWholeSecond = (ms: number): number => Math.ceil(ms / 1000) * 1000

/**
 * Two fixed windows per bucket, the UTC minute and the UTC day, and bans.
 *
 * - A request is admitted when both windows have room and consumes one unit of
 *   each; a rejected request consumes nothing.
 * - More than `banAfter` rejections within the exhausted window (the minute, or
 *   the day once the daily quota is spent) ban a bannable bucket for
 *   `banMinutes`; the rejection that crosses the line is already answered
 *   `api_key_banned`. Requests during a ban neither count nor extend it.
 * - Memory: at the first request of each new minute, buckets whose day has
 *   ended and that are not banned are dropped. No timers, so nothing keeps a
 *   process alive and vitest's fake timers have nothing to drive.
 *
 * @example
 * const limiter = createRateLimiter({ banAfter: 20, banMinutes: 15 })
 * const decision = limiter.take({
 *   bucket: 'key:sandbox-free',
 *   limits: { perMinute: 60, perDay: 1_000 },
 *   now: Date.parse('2030-01-01T12:00:00Z'),
 *   bannable: true,
 * })
 * decision.allowed // true
 * decision.headers['X-RateLimit-Remaining'] // '59'
 */
export const createRateLimiter = (options: RateLimitOptions = {}): RateLimiter => {
  const { banAfter, banMs } = resolveRateLimitOptions(options)
  let buckets = new Map<string, Bucket>()
  let sweptMinute = Number.NaN

  const sweep = (now: number, dayStart: number): void => {
    for (const [name, bucket] of buckets) {
      if (bucket.dayStart !== dayStart && bucket.bannedUntil <= now) buckets.delete(name)
    }
  }

  return {
    take({ bucket: name, limits, now, bannable }) {
      const minuteStart = Math.floor(now / MINUTE) * MINUTE
      const dayStart = Math.floor(now / DAY) * DAY
      if (minuteStart !== sweptMinute) {
        sweep(now, dayStart)
        sweptMinute = minuteStart
      }
      let bucket = buckets.get(name)
      if (bucket === undefined) {
        bucket = {
          minuteStart,
          minuteUsed: 0,
          minuteRejected: 0,
          dayStart,
          dayUsed: 0,
          dayRejected: 0,
          bannedUntil: 0,
        }
        buckets.set(name, bucket)
      }
      // `!==` rather than `<`: a clock set back in time also starts fresh windows.
      if (bucket.minuteStart !== minuteStart) {
        bucket.minuteStart = minuteStart
        bucket.minuteUsed = 0
        bucket.minuteRejected = 0
      }
      if (bucket.dayStart !== dayStart) {
        bucket.dayStart = dayStart
        bucket.dayUsed = 0
        bucket.dayRejected = 0
      }
      const minuteLeft = limits.perMinute - bucket.minuteUsed
      const dayLeft = limits.perDay - bucket.dayUsed

      if (now < bucket.bannedUntil) {
        const until = bucket.bannedUntil
        return {
          allowed: false,
          code: 'api_key_banned',
          retryAfterSeconds: retryAfterSeconds(until, now),
          headers: describeWindow({
            limits,
            minuteStart,
            dayStart,
            minuteLeft,
            dayLeft,
            banEndsAt: until,
          }).headers,
        }
      }
      if (minuteLeft > 0 && dayLeft > 0) {
        bucket.minuteUsed++
        bucket.dayUsed++
        const { headers } = describeWindow({
          limits,
          minuteStart,
          dayStart,
          minuteLeft: minuteLeft - 1,
          dayLeft: dayLeft - 1,
        })
        return { allowed: true, headers }
      }

      // Rejected: count it against the window that is spent (the day when both are).
      const dayExhausted = dayLeft <= 0
      const rejected = dayExhausted ? ++bucket.dayRejected : ++bucket.minuteRejected
      if (bannable && rejected > banAfter) {
        // A whole second, so X-RateLimit-Reset and Retry-After name the same moment.
        bucket.bannedUntil = toWholeSecond(now + banMs)
        bucket.minuteRejected = 0
        bucket.dayRejected = 0
        const until = bucket.bannedUntil
        return {
          allowed: false,
          code: 'api_key_banned',
          retryAfterSeconds: retryAfterSeconds(until, now),
          headers: describeWindow({
            limits,
            minuteStart,
            dayStart,
            minuteLeft,
            dayLeft,
            banEndsAt: until,
          }).headers,
        }
      }
      const { headers, resetAt } = describeWindow({
        limits,
        minuteStart,
        dayStart,
        minuteLeft,
        dayLeft,
      })
      return {
        allowed: false,
        code: 'rate_limit_exceeded',
        retryAfterSeconds: retryAfterSeconds(resetAt, now),
        headers,
      }
    },
    reset() {
      buckets = new Map()
      sweptMinute = Number.NaN
    },
    get size() {
      return buckets.size
    },
  }
}
