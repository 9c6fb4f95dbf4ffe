import { describe, expect, it } from 'vitest'
import type { PlanLimits } from '../../src/contract/plans.js'
import { createRateLimiter, type RateLimiter } from '../../src/rate-limit/rate-limiter.js'
import { defineLimiterCases } from './limiter-cases.js'

const T = (iso: string): number => Date.parse(iso)
const NOON = T('2030-01-01T12:00:00.000Z')
const SMALL: PlanLimits = { perMinute: 3, perDay: 5 }

const takeN = (
  limiter: RateLimiter,
  n: number,
  now: number,
  { limits = SMALL, bucket = 'key:k', bannable = true } = {},
) => Array.from({ length: n }, () => limiter.take({ bucket, limits, now, bannable }))

const take = (limiter: RateLimiter, now: number, options = {}) => {
  const [decision] = takeN(limiter, 1, now, options)
  if (decision === undefined) throw new Error('no decision')
  return decision
}

// The case table both limiters answer alike (the Redis one in test/state/redis/).
defineLimiterCases((options) => createRateLimiter(options))

describe('options', () => {
  it.each([
    [{ banAfter: -1 }, /banAfter must be a whole number >= 0/],
    [{ banAfter: 1.5 }, /banAfter/],
    [{ banMinutes: 0 }, /banMinutes must be a whole number from 1/],
    [{ banMinutes: Number.NaN }, /banMinutes/],
  ])('rejects the option %o with a clear message', (options, message) => {
    expect(() => createRateLimiter(options)).toThrow(message)
  })
})

describe('reset and memory', () => {
  it('reset forgets quotas and bans', () => {
    const limiter = createRateLimiter()
    takeN(limiter, 24, NOON)
    expect(take(limiter, NOON).code).toBe('api_key_banned')
    limiter.reset()
    expect(limiter.size).toBe(0)
    expect(take(limiter, NOON).headers['X-RateLimit-Remaining']).toBe('2')
  })

  it('drops the buckets of 100,000 callers once their day has ended', () => {
    const limiter = createRateLimiter()
    for (let i = 0; i < 100_000; i++) take(limiter, NOON, { bucket: `key:${i}` })
    expect(limiter.size).toBe(100_000)
    // Still counted within the day, even minutes later.
    take(limiter, NOON + 3_600_000, { bucket: 'key:other' })
    expect(limiter.size).toBe(100_001)
    take(limiter, T('2030-01-02T00:00:00Z'), { bucket: 'key:tomorrow' })
    expect(limiter.size).toBe(1)
  })

  it('keeps a banned bucket past midnight until its ban ends', () => {
    const limiter = createRateLimiter()
    const lateEvening = T('2030-01-01T23:55:00Z')
    takeN(limiter, 24, lateEvening)
    take(limiter, T('2030-01-02T00:05:00Z'), { bucket: 'key:other' })
    expect(limiter.size).toBe(2)
    take(limiter, T('2030-01-02T00:11:00Z'), { bucket: 'key:other' })
    expect(limiter.size).toBe(1)
  })
})
