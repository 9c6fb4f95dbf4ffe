import type { PlanLimits } from '../contract/plans.js'

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
  take(bucket: string, limits: PlanLimits, now: number): RateLimitDecision
  /** Forgets every bucket (fresh quotas). */
  reset(): void
}

const MINUTE = 60_000
const DAY = 86_400_000

interface Window {
  start: number
  used: number
}

interface Bucket {
  minute: Window
  day: Window
}

/**
 * Two fixed windows per bucket: the UTC minute and the UTC day.
 * TODO(issue 3): bans, pruning of ended windows, configuration.
 */
export const createRateLimiter = (): RateLimiter => {
  let buckets = new Map<string, Bucket>()
  return {
    take(name, limits, now) {
      const minuteStart = now - (now % MINUTE)
      const dayStart = now - (now % DAY)
      let bucket = buckets.get(name)
      if (bucket === undefined) {
        bucket = { minute: { start: minuteStart, used: 0 }, day: { start: dayStart, used: 0 } }
        buckets.set(name, bucket)
      }
      if (bucket.minute.start !== minuteStart) bucket.minute = { start: minuteStart, used: 0 }
      if (bucket.day.start !== dayStart) bucket.day = { start: dayStart, used: 0 }
      const minuteLeft = limits.perMinute - bucket.minute.used
      const dayLeft = limits.perDay - bucket.day.used
      const allowed = minuteLeft > 0 && dayLeft > 0
      if (allowed) {
        bucket.minute.used++
        bucket.day.used++
      }
      const useDay = dayLeft < minuteLeft
      const limit = useDay ? limits.perDay : limits.perMinute
      const remaining = Math.max(0, (useDay ? dayLeft : minuteLeft) - (allowed ? 1 : 0))
      const resetAt = useDay ? dayStart + DAY : minuteStart + MINUTE
      const headers = {
        'X-RateLimit-Limit': String(limit),
        'X-RateLimit-Remaining': String(remaining),
        'X-RateLimit-Reset': String(Math.ceil(resetAt / 1000)),
      }
      if (allowed) return { allowed, headers }
      const exhaustedResetAt = dayLeft <= 0 ? dayStart + DAY : minuteStart + MINUTE
      return {
        allowed,
        code: 'rate_limit_exceeded',
        retryAfterSeconds: Math.max(1, Math.ceil((exhaustedResetAt - now) / 1000)),
        headers,
      }
    },
    reset() {
      buckets = new Map()
    },
  }
}
