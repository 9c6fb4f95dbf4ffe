import { describe, expect, it } from 'vitest'
import type { PlanLimits } from '../../src/contract/plans.js'
import type { RateLimitOptions } from '../../src/rate-limit/rate-limit-options.js'
import type { RateLimitDecision, TakeRequest } from '../../src/rate-limit/rate-limiter.js'

/** A limiter as the case table drives it: the in-memory one, or the Lua one in Redis. */
export interface CaseLimiter {
  take(request: TakeRequest): RateLimitDecision | Promise<RateLimitDecision>
  reset(): void | Promise<void>
}

const T = (iso: string): number => Date.parse(iso)
const NOON = T('2030-01-01T12:00:00.000Z')
const SMALL: PlanLimits = { perMinute: 3, perDay: 5 }

const takeN = async (
  limiter: CaseLimiter,
  n: number,
  now: number,
  { limits = SMALL, bucket = 'key:k', bannable = true } = {},
): Promise<RateLimitDecision[]> => {
  const decisions: RateLimitDecision[] = []
  for (let i = 0; i < n; i++) decisions.push(await limiter.take({ bucket, limits, now, bannable }))
  return decisions
}

const take = async (limiter: CaseLimiter, now: number, options = {}) => {
  const [decision] = await takeN(limiter, 1, now, options)
  if (decision === undefined) throw new Error('no decision')
  return decision
}

/**
 * The limiter's case table: windows, boundaries, bans. Run against the
 * in-memory limiter (rate-limiter.test.ts) and the Redis Lua limiter
 * (test/state/redis/redis-limiter.test.ts), so both answer exactly alike.
 *
 * @example
 * defineLimiterCases((options) => createRateLimiter(options))
 */
export const defineLimiterCases = (create: (options?: RateLimitOptions) => CaseLimiter): void => {
  describe('the minute window', () => {
    it('admits perMinute requests, then refuses with rate_limit_exceeded', async () => {
      const limiter = create()
      const decisions = await takeN(limiter, 4, NOON)
      expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false])
      expect(decisions.map((d) => d.headers['X-RateLimit-Remaining'])).toEqual(['2', '1', '0', '0'])
      expect(decisions[3]?.code).toBe('rate_limit_exceeded')
    })

    it('still refuses at 59.999 s and admits again at 60.000 s', async () => {
      const limiter = create()
      await takeN(limiter, 3, NOON)
      const late = await take(limiter, NOON + 59_999)
      expect(late.allowed).toBe(false)
      expect(late.retryAfterSeconds).toBe(1)
      expect(late.headers['X-RateLimit-Reset']).toBe(String((NOON + 60_000) / 1000))
      const next = await take(limiter, NOON + 60_000)
      expect(next.allowed).toBe(true)
    })

    it('answers Retry-After in whole seconds until the minute ends, never 0', async () => {
      for (let offset = 0; offset < 60_000; offset += 997) {
        const limiter = create()
        await takeN(limiter, 3, NOON)
        const refused = await take(limiter, NOON + offset)
        const seconds = refused.retryAfterSeconds ?? 0
        expect(seconds).toBeGreaterThanOrEqual(1)
        expect(Number.isInteger(seconds)).toBe(true)
        // Retrying after that many seconds lands in the next minute, and not a second later.
        expect(NOON + offset + seconds * 1000).toBeGreaterThanOrEqual(NOON + 60_000)
        expect(NOON + offset + (seconds - 1) * 1000).toBeLessThan(NOON + 60_000)
      }
    })

    it('consumes nothing for a rejected request', async () => {
      const limiter = create()
      await takeN(limiter, 3, NOON)
      await takeN(limiter, 10, NOON + 1_000)
      // Had the 10 rejections counted against the day (5), the day would be spent.
      const next = await take(limiter, NOON + 60_000)
      expect(next.allowed).toBe(true)
      expect(next.headers['X-RateLimit-Remaining']).toBe('1')
    })

    it('keeps buckets apart', async () => {
      const limiter = create()
      await takeN(limiter, 3, NOON, { bucket: 'key:a' })
      expect((await take(limiter, NOON, { bucket: 'key:b' })).allowed).toBe(true)
    })
  })

  describe('the day window', () => {
    it('becomes the tighter one and is reported once fewer requests are left in it', async () => {
      const limiter = create()
      await takeN(limiter, 3, NOON)
      const next = await take(limiter, NOON + 60_000)
      // Minute: 2 left; day: 1 left, so the day is reported.
      expect(next.headers).toEqual({
        'X-RateLimit-Limit': '5',
        'X-RateLimit-Remaining': '1',
        'X-RateLimit-Reset': String(T('2030-01-02T00:00:00Z') / 1000),
      })
    })

    it('reports the minute on a tie', async () => {
      const limiter = create()
      const [first] = await takeN(limiter, 1, NOON, { limits: { perMinute: 5, perDay: 5 } })
      expect(first?.headers['X-RateLimit-Limit']).toBe('5')
      expect(first?.headers['X-RateLimit-Reset']).toBe(String((NOON + 60_000) / 1000))
    })

    it('reports the day when both windows are spent, since the minute ending would not help', async () => {
      const limiter = create()
      const decisions = await takeN(limiter, 2, NOON, { limits: { perMinute: 1, perDay: 1 } })
      const midnight = String(T('2030-01-02T00:00:00Z') / 1000)
      expect(decisions[0]?.headers['X-RateLimit-Reset']).toBe(midnight)
      expect(decisions[1]?.headers['X-RateLimit-Reset']).toBe(midnight)
      expect(decisions[1]?.retryAfterSeconds).toBe(12 * 3600)
    })

    it('refuses until UTC midnight and admits again at 00:00:00.000', async () => {
      const limiter = create()
      await takeN(limiter, 3, T('2030-01-01T23:58:00Z'))
      await takeN(limiter, 2, T('2030-01-01T23:59:00Z'))
      const before = await take(limiter, T('2030-01-01T23:59:59.999Z'))
      expect(before.allowed).toBe(false)
      expect(before.retryAfterSeconds).toBe(1)
      expect(before.headers['X-RateLimit-Limit']).toBe('5')
      const after = await take(limiter, T('2030-01-02T00:00:00.000Z'))
      expect(after.allowed).toBe(true)
      expect(after.headers['X-RateLimit-Remaining']).toBe('2')
    })

    it('tells a client refused by the day to come back at midnight, not in a minute', async () => {
      const limiter = create()
      await takeN(limiter, 3, NOON)
      await takeN(limiter, 2, NOON + 60_000)
      const refused = await take(limiter, NOON + 120_000)
      expect(refused.retryAfterSeconds).toBe(12 * 3600 - 120)
    })
  })

  describe('bans', () => {
    const spend = (limiter: CaseLimiter) => takeN(limiter, 3, NOON)

    it('answers the 21st rejection within a window api_key_banned with Retry-After until the ban ends', async () => {
      const limiter = create()
      await spend(limiter)
      const rejections = await takeN(limiter, 21, NOON + 1_000)
      expect(rejections.slice(0, 20).every((d) => d.code === 'rate_limit_exceeded')).toBe(true)
      const banned = rejections[20]
      expect(banned?.code).toBe('api_key_banned')
      expect(banned?.retryAfterSeconds).toBe(15 * 60)
      expect(banned?.headers['X-RateLimit-Remaining']).toBe('0')
      expect(banned?.headers['X-RateLimit-Reset']).toBe(String((NOON + 1_000 + 900_000) / 1000))
    })

    it('lasts until its end, then admits again', async () => {
      const limiter = create()
      await spend(limiter)
      await takeN(limiter, 21, NOON + 1_000)
      const end = NOON + 1_000 + 900_000
      const last = await take(limiter, end - 1)
      expect(last.code).toBe('api_key_banned')
      expect(last.retryAfterSeconds).toBe(1)
      expect((await take(limiter, end)).allowed).toBe(true)
    })

    it('is not extended by requests sent during it', async () => {
      const limiter = create()
      await spend(limiter)
      await takeN(limiter, 21, NOON)
      await takeN(limiter, 100, NOON + 600_000)
      expect((await take(limiter, NOON + 900_000)).allowed).toBe(true)
    })

    it('does not ban 20 rejections in one minute and 20 in the next', async () => {
      const limiter = create({}) // day of 5 would be spent: use a roomy day
      const limits = { perMinute: 1, perDay: 100 }
      await takeN(limiter, 21, NOON, { limits })
      const next = await takeN(limiter, 21, NOON + 60_000, { limits })
      expect(next.every((d) => d.code !== 'api_key_banned')).toBe(true)
    })

    it('counts rejections against the day once the day is spent', async () => {
      const limiter = create()
      await spend(limiter)
      await takeN(limiter, 2, NOON + 60_000)
      const codes = []
      for (let i = 0; i < 21; i++) codes.push(await take(limiter, NOON + 120_000 + i * 60_000))
      expect(codes.map((d) => d.code).lastIndexOf('rate_limit_exceeded')).toBe(19)
      expect(codes[20]?.code).toBe('api_key_banned')
    })

    it('never bans an anonymous bucket', async () => {
      const limiter = create()
      const decisions = await takeN(limiter, 100, NOON, { bannable: false })
      expect(decisions.filter((d) => d.allowed)).toHaveLength(3)
      expect(decisions.every((d) => d.code !== 'api_key_banned')).toBe(true)
    })

    it('follows the banAfter and banMinutes options', async () => {
      const limiter = create({ banAfter: 2, banMinutes: 1 })
      await spend(limiter)
      const codes = (await takeN(limiter, 3, NOON)).map((d) => d.code)
      expect(codes).toEqual(['rate_limit_exceeded', 'rate_limit_exceeded', 'api_key_banned'])
      expect((await take(limiter, NOON)).retryAfterSeconds).toBe(60)
    })

    it('never bans with banAfter Infinity', async () => {
      const limiter = create({ banAfter: Number.POSITIVE_INFINITY })
      await spend(limiter)
      expect((await takeN(limiter, 500, NOON)).every((d) => d.code === 'rate_limit_exceeded')).toBe(
        true,
      )
    })

    it('rounds the ban end up to a whole second, so Reset and Retry-After agree', async () => {
      const limiter = create()
      await spend(limiter)
      const [banned] = (await takeN(limiter, 21, NOON + 1_500)).slice(20)
      expect(banned?.headers['X-RateLimit-Reset']).toBe(String((NOON + 2_000 + 900_000) / 1000))
      expect(banned?.retryAfterSeconds).toBe(901)
    })
  })

  describe('reset and the clock', () => {
    it('reset forgets quotas and bans', async () => {
      const limiter = create()
      await takeN(limiter, 24, NOON)
      expect((await take(limiter, NOON)).code).toBe('api_key_banned')
      await limiter.reset()
      expect((await take(limiter, NOON)).headers['X-RateLimit-Remaining']).toBe('2')
    })

    it('starts fresh windows when the clock is set back', async () => {
      const limiter = create()
      await takeN(limiter, 3, NOON)
      expect((await take(limiter, NOON - 86_400_000)).allowed).toBe(true)
    })

    it('handles times before 1970 with the right UTC windows', async () => {
      const limiter = create()
      const decision = await take(limiter, T('1969-12-31T23:59:30Z'))
      expect(decision.headers['X-RateLimit-Reset']).toBe('0')
    })
  })
}
