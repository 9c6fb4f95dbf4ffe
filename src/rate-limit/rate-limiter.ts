import type { PlanLimits } from '../contract/plans.js'
import { anonymousBucketName } from './anonymous-bucket-name.js'
import {
  banEnd,
  DAY_MS,
  describeWindow,
  MINUTE_MS,
  retryAfterSeconds,
  type WindowState,
  windowEnd,
} from './describe-window.js'
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

/** A bucket's counts as of a moment, as `snapshot` reads them. */
export interface BucketSnapshot {
  bucket: string
  /** Requests admitted in the current UTC minute and day (0 once a window has ended). */
  minuteUsed: number
  dayUsed: number
  /** Epoch ms the ban ends, while the bucket is banned. */
  bannedUntil: number | undefined
}

export interface RateLimiter {
  /** Admits a request when both windows have room and consumes one unit of each. Synchronous, so exact under concurrency. */
  take(request: TakeRequest): RateLimitDecision
  /** Reads every bucket as of `now` without counting, sweeping or changing anything (the dashboard's gauges). */
  snapshot(now: number): BucketSnapshot[]
  /** The headers a request would get now, without counting it (OPTIONS answers, the dashboard). */
  peek(request: Omit<TakeRequest, 'bannable'>): Pick<RateLimitDecision, 'headers'>
  /** Forgets every bucket: fresh quotas, no bans. */
  reset(): void
  /** How many buckets are held (for tests and the benchmark). */
  readonly size: number
}

/** Anonymous buckets held at most (option `maxAnonymousBuckets`); the least recently used go first. */
export const ANONYMOUS_BUCKET_CAP = 10_000

const MINUTE = MINUTE_MS
const DAY = DAY_MS

/**
 * Flat small integers rather than nested window objects or epoch milliseconds
 * (which V8 boxes as doubles): 100,000 buckets stay small.
 */
interface Bucket {
  /** The UTC minute of the minute window: minutes since the epoch. */
  minute: number
  minuteUsed: number
  minuteRejected: number
  /** The UTC day of the day window: days since the epoch. */
  day: number
  dayUsed: number
  dayRejected: number
  /** Epoch ms the ban ends; 0 when the bucket was never banned. */
  bannedUntil: number
}

/** The answer during a ban: Retry-After and X-RateLimit-Reset name its end. */
const banned = (window: WindowState, until: number, now: number): RateLimitDecision => ({
  allowed: false,
  code: 'api_key_banned',
  retryAfterSeconds: retryAfterSeconds(until, now),
  headers: describeWindow({ ...window, banEndsAt: until }),
})

/**
 * Two fixed windows per bucket, the UTC minute and the UTC day, and bans.
 *
 * - A request is admitted when both windows have room and consumes one unit of
 *   each; a rejected request consumes nothing.
 * - More than `banAfter` rejections within the exhausted window (the minute, or
 *   the day once the daily quota is spent) ban a bannable bucket for
 *   `banMinutes`; the rejection that crosses the line is already answered
 *   `api_key_banned`. Requests during a ban neither count nor extend it.
 * - Memory: the first request of a new UTC day sweeps out every bucket whose
 *   day has ended, so what is held is proportional to the callers of the
 *   current day. A bucket still banned is kept, and swept again at the next
 *   new minute until its ban is over. No timers: nothing keeps a process
 *   alive, and vitest's fake timers have nothing to drive.
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
export const createRateLimiter = (
  options: RateLimitOptions & { maxAnonymousBuckets?: number } = {},
): RateLimiter => {
  const { banAfter, banMs } = resolveRateLimitOptions(options)
  const maxAnonymous = options.maxAnonymousBuckets ?? ANONYMOUS_BUCKET_CAP
  let buckets = new Map<string, Bucket>()
  // Anonymous (`anon:`) buckets apart, in least-recently-used order, so their cap never evicts a key.
  let anonymous = new Map<string, Bucket>()
  let sweptDay = Number.NaN
  let sweptMinute = Number.NaN
  /** A bucket of an ended day was kept for its ban: sweep again next minute. */
  let keptBanned = false

  const sweep = (now: number, day: number): void => {
    keptBanned = false
    for (const [name, bucket] of buckets) {
      if (bucket.day === day) continue
      if (bucket.bannedUntil <= now) buckets.delete(name)
      else keptBanned = true
    }
    for (const [name, bucket] of anonymous) if (bucket.day !== day) anonymous.delete(name)
  }

  /** The anonymous bucket, moved to the most recent end; a new one evicts the oldest past the cap. */
  const anonymousBucket = (name: string, fresh: () => Bucket): Bucket => {
    let bucket = anonymous.get(name)
    if (bucket !== undefined) anonymous.delete(name)
    else {
      bucket = fresh()
      while (anonymous.size >= maxAnonymous) {
        const oldest = anonymous.keys().next()
        if (oldest.done === true) break
        anonymous.delete(oldest.value)
      }
    }
    anonymous.set(name, bucket)
    return bucket
  }

  return {
    take({ bucket: name, limits, now, bannable }) {
      const minute = Math.floor(now / MINUTE)
      const day = Math.floor(now / DAY)
      // `!==` rather than `>`: a clock set back in time sweeps (and starts fresh windows) too.
      if (day !== sweptDay || (keptBanned && minute !== sweptMinute)) {
        sweep(now, day)
        sweptDay = day
        sweptMinute = minute
      }
      const minuteStart = minute * MINUTE
      const dayStart = day * DAY
      const fresh = (): Bucket => ({
        minute,
        minuteUsed: 0,
        minuteRejected: 0,
        day,
        dayUsed: 0,
        dayRejected: 0,
        bannedUntil: 0,
      })
      let bucket: Bucket | undefined
      if (!name.startsWith('anon:')) {
        bucket = buckets.get(name)
        if (bucket === undefined) {
          bucket = fresh()
          buckets.set(name, bucket)
        }
      } else bucket = anonymousBucket(anonymousBucketName(name), fresh)
      if (bucket.minute !== minute) {
        bucket.minute = minute
        bucket.minuteUsed = 0
        bucket.minuteRejected = 0
      }
      if (bucket.day !== day) {
        bucket.day = day
        bucket.dayUsed = 0
        bucket.dayRejected = 0
      }
      const minuteLeft = limits.perMinute - bucket.minuteUsed
      const dayLeft = limits.perDay - bucket.dayUsed

      const window: WindowState = {
        limits,
        minuteStart,
        dayStart,
        minuteLeft,
        dayLeft,
        banEndsAt: undefined,
      }

      if (now < bucket.bannedUntil) return banned(window, bucket.bannedUntil, now)
      if (minuteLeft > 0 && dayLeft > 0) {
        bucket.minuteUsed++
        bucket.dayUsed++
        window.minuteLeft--
        window.dayLeft--
        return { allowed: true, headers: describeWindow(window) }
      }

      // Refused: count it against the window that is spent (the day when both
      // are), which is also the window the headers describe.
      const dayExhausted = dayLeft <= 0
      const rejected = dayExhausted ? ++bucket.dayRejected : ++bucket.minuteRejected
      if (bannable && rejected > banAfter) {
        // A whole second, so X-RateLimit-Reset and Retry-After name the same moment.
        bucket.bannedUntil = banEnd(now, banMs)
        bucket.minuteRejected = 0
        bucket.dayRejected = 0
        return banned(window, bucket.bannedUntil, now)
      }
      return {
        allowed: false,
        code: 'rate_limit_exceeded',
        retryAfterSeconds: retryAfterSeconds(windowEnd(now, dayExhausted ? 'day' : 'minute'), now),
        headers: describeWindow(window),
      }
    },
    snapshot(now) {
      const minute = Math.floor(now / MINUTE)
      const day = Math.floor(now / DAY)
      return Array.from(buckets, ([name, b]) => ({
        bucket: name,
        minuteUsed: b.minute === minute ? b.minuteUsed : 0,
        dayUsed: b.day === day ? b.dayUsed : 0,
        bannedUntil: b.bannedUntil > now ? b.bannedUntil : undefined,
      }))
    },
    peek({ bucket: name, limits, now }) {
      const minute = Math.floor(now / MINUTE)
      const day = Math.floor(now / DAY)
      const bucket = name.startsWith('anon:')
        ? anonymous.get(anonymousBucketName(name))
        : buckets.get(name)
      const minuteUsed = bucket !== undefined && bucket.minute === minute ? bucket.minuteUsed : 0
      const dayUsed = bucket !== undefined && bucket.day === day ? bucket.dayUsed : 0
      const banEndsAt =
        bucket !== undefined && now < bucket.bannedUntil ? bucket.bannedUntil : undefined
      return {
        headers: describeWindow({
          limits,
          minuteStart: minute * MINUTE,
          dayStart: day * DAY,
          minuteLeft: limits.perMinute - minuteUsed,
          dayLeft: limits.perDay - dayUsed,
          banEndsAt,
        }),
      }
    },
    reset() {
      buckets = new Map()
      anonymous = new Map()
      sweptDay = Number.NaN
      sweptMinute = Number.NaN
      keptBanned = false
    },
    get size() {
      return buckets.size + anonymous.size
    },
  }
}
