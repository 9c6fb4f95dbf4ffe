import { describe, expect, it } from 'vitest'
import type { PlanLimits } from '../../src/contract/plans.js'
import { createRateLimiter, type RateLimiter } from '../../src/rate-limit/rate-limiter.js'

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

describe('the minute window', () => {
  it('admits perMinute requests, then refuses with rate_limit_exceeded', () => {
    const limiter = createRateLimiter()
    const decisions = takeN(limiter, 4, NOON)
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false])
    expect(decisions.map((d) => d.headers['X-RateLimit-Remaining'])).toEqual(['2', '1', '0', '0'])
    expect(decisions[3]?.code).toBe('rate_limit_exceeded')
  })

  it('still refuses at 59.999 s and admits again at 60.000 s', () => {
    const limiter = createRateLimiter()
    takeN(limiter, 3, NOON)
    const late = take(limiter, NOON + 59_999)
    expect(late.allowed).toBe(false)
    expect(late.retryAfterSeconds).toBe(1)
    expect(late.headers['X-RateLimit-Reset']).toBe(String((NOON + 60_000) / 1000))
    const next = take(limiter, NOON + 60_000)
    expect(next.allowed).toBe(true)
  })

  it('answers Retry-After in whole seconds until the minute ends, never 0', () => {
    for (let offset = 0; offset < 60_000; offset += 997) {
      const limiter = createRateLimiter()
      takeN(limiter, 3, NOON)
      const refused = take(limiter, NOON + offset)
      const seconds = refused.retryAfterSeconds ?? 0
      expect(seconds).toBeGreaterThanOrEqual(1)
      expect(Number.isInteger(seconds)).toBe(true)
      // Retrying after that many seconds lands in the next minute, and not a second later.
      expect(NOON + offset + seconds * 1000).toBeGreaterThanOrEqual(NOON + 60_000)
      expect(NOON + offset + (seconds - 1) * 1000).toBeLessThan(NOON + 60_000)
    }
  })

  it('consumes nothing for a rejected request', () => {
    const limiter = createRateLimiter()
    takeN(limiter, 3, NOON)
    takeN(limiter, 10, NOON + 1_000)
    // Had the 10 rejections counted against the day (5), the day would be spent.
    const next = take(limiter, NOON + 60_000)
    expect(next.allowed).toBe(true)
    expect(next.headers['X-RateLimit-Remaining']).toBe('1')
  })

  it('keeps buckets apart', () => {
    const limiter = createRateLimiter()
    takeN(limiter, 3, NOON, { bucket: 'key:a' })
    expect(take(limiter, NOON, { bucket: 'key:b' }).allowed).toBe(true)
  })
})

describe('the day window', () => {
  it('becomes the tighter one and is reported once fewer requests are left in it', () => {
    const limiter = createRateLimiter()
    takeN(limiter, 3, NOON)
    const next = take(limiter, NOON + 60_000)
    // Minute: 2 left; day: 1 left, so the day is reported.
    expect(next.headers).toEqual({
      'X-RateLimit-Limit': '5',
      'X-RateLimit-Remaining': '1',
      'X-RateLimit-Reset': String(T('2030-01-02T00:00:00Z') / 1000),
    })
  })

  it('reports the minute on a tie', () => {
    const limiter = createRateLimiter()
    const [first] = takeN(limiter, 1, NOON, { limits: { perMinute: 5, perDay: 5 } })
    expect(first?.headers['X-RateLimit-Limit']).toBe('5')
    expect(first?.headers['X-RateLimit-Reset']).toBe(String((NOON + 60_000) / 1000))
  })

  it('reports the day when both windows are spent, since the minute ending would not help', () => {
    const limiter = createRateLimiter()
    const decisions = takeN(limiter, 2, NOON, { limits: { perMinute: 1, perDay: 1 } })
    const midnight = String(T('2030-01-02T00:00:00Z') / 1000)
    expect(decisions[0]?.headers['X-RateLimit-Reset']).toBe(midnight)
    expect(decisions[1]?.headers['X-RateLimit-Reset']).toBe(midnight)
    expect(decisions[1]?.retryAfterSeconds).toBe(12 * 3600)
  })

  it('refuses until UTC midnight and admits again at 00:00:00.000', () => {
    const limiter = createRateLimiter()
    takeN(limiter, 3, T('2030-01-01T23:58:00Z'))
    takeN(limiter, 2, T('2030-01-01T23:59:00Z'))
    const before = take(limiter, T('2030-01-01T23:59:59.999Z'))
    expect(before.allowed).toBe(false)
    expect(before.retryAfterSeconds).toBe(1)
    expect(before.headers['X-RateLimit-Limit']).toBe('5')
    const after = take(limiter, T('2030-01-02T00:00:00.000Z'))
    expect(after.allowed).toBe(true)
    expect(after.headers['X-RateLimit-Remaining']).toBe('2')
  })

  it('tells a client refused by the day to come back at midnight, not in a minute', () => {
    const limiter = createRateLimiter()
    takeN(limiter, 3, NOON)
    takeN(limiter, 2, NOON + 60_000)
    const refused = take(limiter, NOON + 120_000)
    expect(refused.retryAfterSeconds).toBe(12 * 3600 - 120)
  })
})

describe('bans', () => {
  const spend = (limiter: RateLimiter) => takeN(limiter, 3, NOON)

  it('answers the 21st rejection within a window api_key_banned with Retry-After until the ban ends', () => {
    const limiter = createRateLimiter()
    spend(limiter)
    const rejections = takeN(limiter, 21, NOON + 1_000)
    expect(rejections.slice(0, 20).every((d) => d.code === 'rate_limit_exceeded')).toBe(true)
    const banned = rejections[20]
    expect(banned?.code).toBe('api_key_banned')
    expect(banned?.retryAfterSeconds).toBe(15 * 60)
    expect(banned?.headers['X-RateLimit-Remaining']).toBe('0')
    expect(banned?.headers['X-RateLimit-Reset']).toBe(String((NOON + 1_000 + 900_000) / 1000))
  })

  it('lasts until its end, then admits again', () => {
    const limiter = createRateLimiter()
    spend(limiter)
    takeN(limiter, 21, NOON + 1_000)
    const end = NOON + 1_000 + 900_000
    const last = take(limiter, end - 1)
    expect(last.code).toBe('api_key_banned')
    expect(last.retryAfterSeconds).toBe(1)
    expect(take(limiter, end).allowed).toBe(true)
  })

  it('is not extended by requests sent during it', () => {
    const limiter = createRateLimiter()
    spend(limiter)
    takeN(limiter, 21, NOON)
    takeN(limiter, 100, NOON + 600_000)
    expect(take(limiter, NOON + 900_000).allowed).toBe(true)
  })

  it('does not ban 20 rejections in one minute and 20 in the next', () => {
    const limiter = createRateLimiter({}) // day of 5 would be spent: use a roomy day
    const limits = { perMinute: 1, perDay: 100 }
    takeN(limiter, 21, NOON, { limits })
    const next = takeN(limiter, 21, NOON + 60_000, { limits })
    expect(next.every((d) => d.code !== 'api_key_banned')).toBe(true)
  })

  it('counts rejections against the day once the day is spent', () => {
    const limiter = createRateLimiter()
    spend(limiter)
    takeN(limiter, 2, NOON + 60_000)
    const codes = Array.from({ length: 21 }, (_, i) => take(limiter, NOON + 120_000 + i * 60_000))
    expect(codes.map((d) => d.code).lastIndexOf('rate_limit_exceeded')).toBe(19)
    expect(codes[20]?.code).toBe('api_key_banned')
  })

  it('never bans an anonymous bucket', () => {
    const limiter = createRateLimiter()
    const decisions = takeN(limiter, 100, NOON, { bannable: false })
    expect(decisions.filter((d) => d.allowed)).toHaveLength(3)
    expect(decisions.every((d) => d.code !== 'api_key_banned')).toBe(true)
  })

  it('follows the banAfter and banMinutes options', () => {
    const limiter = createRateLimiter({ banAfter: 2, banMinutes: 1 })
    spend(limiter)
    const codes = takeN(limiter, 3, NOON).map((d) => d.code)
    expect(codes).toEqual(['rate_limit_exceeded', 'rate_limit_exceeded', 'api_key_banned'])
    expect(take(limiter, NOON).retryAfterSeconds).toBe(60)
  })

  it('never bans with banAfter Infinity', () => {
    const limiter = createRateLimiter({ banAfter: Number.POSITIVE_INFINITY })
    spend(limiter)
    expect(takeN(limiter, 500, NOON).every((d) => d.code === 'rate_limit_exceeded')).toBe(true)
  })

  it('rounds the ban end up to a whole second, so Reset and Retry-After agree', () => {
    const limiter = createRateLimiter()
    spend(limiter)
    const [banned] = takeN(limiter, 21, NOON + 1_500).slice(20)
    expect(banned?.headers['X-RateLimit-Reset']).toBe(String((NOON + 2_000 + 900_000) / 1000))
    expect(banned?.retryAfterSeconds).toBe(901)
  })

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

  it('starts fresh windows when the clock is set back', () => {
    const limiter = createRateLimiter()
    takeN(limiter, 3, NOON)
    expect(take(limiter, NOON - 86_400_000).allowed).toBe(true)
  })

  it('handles times before 1970 with the right UTC windows', () => {
    const limiter = createRateLimiter()
    const decision = take(limiter, T('1969-12-31T23:59:30Z'))
    expect(decision.headers['X-RateLimit-Reset']).toBe('0')
  })
})
