import { describe, expect, it } from 'vitest'
import type { SuiteContext } from './define-conformance-suite.js'
import { expectApiError } from './expect-api-error.js'
import type { WireRequest, WireResponse } from './target.js'

const unix = (iso: string): string => String(Date.parse(iso) / 1000)

/** The three rate-limit headers of a response, as strings. */
const quota = (response: WireResponse) => ({
  limit: response.headers['x-ratelimit-limit'],
  remaining: response.headers['x-ratelimit-remaining'],
  reset: response.headers['x-ratelimit-reset'],
})

const LIST: WireRequest = { method: 'GET', path: '/pets?limit=1' }

/**
 * Contract §3: plans, the two UTC windows, the headers, the anonymous bucket,
 * 429 and bans, all on the sandbox clock. Keys with tiny custom limits keep
 * every test to a few requests, because over HTTP and in a browser each one
 * costs time. Every test sets the clock first: none depends on the wall clock.
 */
export const rateLimitSuite = (ctx: SuiteContext): void => {
  const controls = () => ctx.target().controls
  const smallKey = (perMinute: number, perDay: number) =>
    controls().createKey({ plan: 'enterprise', perMinute, perDay })
  const sendMany = (key: string | undefined, n: number) =>
    Promise.all(Array.from({ length: n }, () => ctx.sendAs(key, LIST)))
  const codes = async (responses: WireResponse[]) =>
    responses.map((r) => (r.status === 200 ? 'ok' : (JSON.parse(r.body) as { code: string }).code))

  describe('rate limits', () => {
    it('counts down the minute and answers 429 rate_limit_exceeded with Retry-After until it ends', async () => {
      await controls().setClock('2030-01-01T12:00:30.000Z')
      const key = await smallKey(3, 5)
      const minuteEnd = unix('2030-01-01T12:01:00Z')
      const admitted = [await ctx.sendAs(key, LIST), await ctx.sendAs(key, LIST)]
      admitted.push(await ctx.sendAs(key, LIST))
      expect(admitted.map((r) => r.status)).toEqual([200, 200, 200])
      expect(admitted.map(quota)).toEqual(
        ['2', '1', '0'].map((remaining) => ({ limit: '3', remaining, reset: minuteEnd })),
      )
      const refused = await ctx.sendAs(key, LIST)
      expectApiError(refused, 429, 'rate_limit_exceeded')
      expect(refused.headers['retry-after']).toBe('30')
      expect(quota(refused)).toEqual({ limit: '3', remaining: '0', reset: minuteEnd })
    })

    it('still refuses at 59.999 s with Retry-After 1 and admits at 60.000 s', async () => {
      await controls().setClock('2030-01-01T12:00:00.000Z')
      const key = await smallKey(3, 100)
      await sendMany(key, 3)
      await controls().advanceClock(59_999)
      const late = await ctx.sendAs(key, LIST)
      expectApiError(late, 429, 'rate_limit_exceeded')
      expect(late.headers['retry-after']).toBe('1')
      await controls().advanceClock(1)
      const next = await ctx.sendAs(key, LIST)
      expect(next.status).toBe(200)
      expect(quota(next).reset).toBe(unix('2030-01-01T12:02:00Z'))
    })

    it('consumes nothing for refused requests and reports the day once fewer are left in it', async () => {
      await controls().setClock('2030-01-01T12:00:00.000Z')
      const key = await smallKey(3, 5)
      expect(await codes(await sendMany(key, 5))).toEqual(
        expect.arrayContaining(['ok', 'ok', 'ok', 'rate_limit_exceeded', 'rate_limit_exceeded']),
      )
      await controls().advanceClock(60_000)
      // Minute: 2 left, day: 1 left (the two refusals cost nothing), so the day is reported.
      const next = await ctx.sendAs(key, LIST)
      expect(next.status).toBe(200)
      expect(quota(next)).toEqual({
        limit: '5',
        remaining: '1',
        reset: unix('2030-01-02T00:00:00Z'),
      })
    })

    it('refuses until UTC midnight once the day is spent, and admits at 00:00:00.000', async () => {
      await controls().setClock('2030-01-01T23:58:10.000Z')
      const key = await smallKey(3, 5)
      await sendMany(key, 3)
      await controls().setClock('2030-01-01T23:59:00.000Z')
      await sendMany(key, 2)
      await controls().setClock('2030-01-01T23:59:59.999Z')
      const refused = await ctx.sendAs(key, LIST)
      expectApiError(refused, 429, 'rate_limit_exceeded')
      expect(refused.headers['retry-after']).toBe('1')
      expect(quota(refused)).toEqual({
        limit: '5',
        remaining: '0',
        reset: unix('2030-01-02T00:00:00Z'),
      })
      await controls().advanceClock(1)
      const next = await ctx.sendAs(key, LIST)
      expect(next.status).toBe(200)
      expect(quota(next).remaining).toBe('2')
    })

    it('admits exactly as many simultaneous requests as are left', async () => {
      await controls().setClock('2030-01-01T12:00:00.000Z')
      const key = await smallKey(10, 100)
      const result = await codes(await sendMany(key, 25))
      expect(result.filter((c) => c === 'ok')).toHaveLength(10)
      expect(result.filter((c) => c === 'rate_limit_exceeded')).toHaveLength(15)
    })
  })

  describe('bans', () => {
    it('bans a key on its 21st refused request in a window, with Retry-After until the ban ends', async () => {
      await controls().setClock('2030-01-01T12:00:00.000Z')
      const key = await smallKey(1, 100)
      expect((await ctx.sendAs(key, LIST)).status).toBe(200)
      for (let i = 0; i < 20; i++)
        expectApiError(await ctx.sendAs(key, LIST), 429, 'rate_limit_exceeded')
      const banned = await ctx.sendAs(key, LIST)
      expectApiError(banned, 429, 'api_key_banned')
      expect(banned.headers['retry-after']).toBe('900')
      expect(quota(banned)).toEqual({
        limit: '1',
        remaining: '0',
        reset: unix('2030-01-01T12:15:00Z'),
      })
      await controls().setClock('2030-01-01T12:14:59.999Z')
      const last = await ctx.sendAs(key, LIST)
      expectApiError(last, 429, 'api_key_banned')
      expect(last.headers['retry-after']).toBe('1')
      await controls().advanceClock(1)
      expect((await ctx.sendAs(key, LIST)).status).toBe(200)
    })

    it('reset clears quotas and bans', async () => {
      await controls().setClock('2030-01-01T12:00:00.000Z')
      await sendMany('sandbox-free', 60)
      await sendMany('sandbox-free', 21)
      expectApiError(await ctx.sendAs('sandbox-free', LIST), 429, 'api_key_banned')
      await controls().reset()
      await controls().setClock('2030-01-01T12:00:00.000Z')
      const fresh = await ctx.sendAs('sandbox-free', LIST)
      expect(fresh.status).toBe(200)
      expect(quota(fresh)).toEqual({
        limit: '60',
        remaining: '59',
        reset: unix('2030-01-01T12:01:00Z'),
      })
    })
  })

  describe('the anonymous bucket', () => {
    // All requests of a test come from one address, so these hold whether the
    // runtime keeps a bucket per address or one shared bucket.
    it('counts requests without a valid key against free-plan limits, shown on the 401', async () => {
      await controls().setClock('2030-01-01T12:00:00.000Z')
      const responses = [
        await ctx.send(LIST),
        await ctx.send({ ...LIST, headers: { authorization: 'Basic abc' } }),
        await ctx.sendAs('no-such-key', LIST),
      ]
      expect(responses.map((r) => r.status)).toEqual([401, 401, 401])
      expect(responses.map(quota)).toEqual(
        ['59', '58', '57'].map((remaining) => ({
          limit: '60',
          remaining,
          reset: unix('2030-01-01T12:01:00Z'),
        })),
      )
    })

    it('answers 429 before 401 once the anonymous bucket is spent, never bans it, and spares valid keys', async () => {
      await controls().setClock('2030-01-01T12:00:00.000Z')
      await sendMany('no-such-key', 60)
      const refused = await sendMany('no-such-key', 25)
      expect(new Set(await codes(refused))).toEqual(new Set(['rate_limit_exceeded']))
      const last = await ctx.send(LIST)
      expectApiError(last, 429, 'rate_limit_exceeded')
      expect(last.headers['retry-after']).toBe('60')
      expect((await ctx.sendAs('sandbox-free', LIST)).status).toBe(200)
      await controls().advanceClock(60_000)
      expectApiError(await ctx.send(LIST), 401, 'missing_api_key')
    })
  })

  describe('headers on every answer', () => {
    const json = { 'content-type': 'application/json' }
    const ANSWERS: ReadonlyArray<[number, WireRequest]> = [
      [200, LIST],
      [
        201,
        { method: 'POST', path: '/pets', headers: json, body: '{"name":"Rex","categoryId":1}' },
      ],
      [400, { method: 'POST', path: '/pets', headers: json, body: '{"name":""}' }],
      [400, { method: 'GET', path: '/pets?limit=0' }],
      [400, { method: 'GET', path: '/pets?__scenario=no-such-scenario' }],
      [404, { method: 'GET', path: '/pets/999999' }],
      [404, { method: 'GET', path: '/owners' }],
      [405, { method: 'DELETE', path: '/pets' }],
      [413, { method: 'POST', path: '/pets', headers: json, body: `"${'x'.repeat(64 * 1024)}"` }],
      [500, { method: 'GET', path: '/pets?__scenario=server-error' }],
      [503, { method: 'GET', path: '/pets?__scenario=unavailable' }],
    ]

    it('carries the quota of the key on 200, 201, 400, 404, 405, 413 and forced answers, each counted', async () => {
      await controls().setClock('2030-06-01T12:00:00.000Z')
      const limit = ANSWERS.length
      const key = await smallKey(limit, 100)
      const reset = unix('2030-06-01T12:01:00Z')
      for (const [index, [status, request]] of ANSWERS.entries()) {
        const response = await ctx.sendAs(key, request)
        expect(response.status, `${request.method} ${request.path}`).toBe(status)
        expect(quota(response), `${request.method} ${request.path}`).toEqual({
          limit: String(limit),
          remaining: String(limit - 1 - index),
          reset,
        })
      }
      const refused = await ctx.sendAs(key, LIST)
      expectApiError(refused, 429, 'rate_limit_exceeded')
      expect(quota(refused)).toEqual({ limit: String(limit), remaining: '0', reset })
    })

    it('carries them on 410 after the removal date and on 401 (the anonymous bucket)', async () => {
      await controls().setClock('2030-12-05T00:00:00.000Z')
      const reset = unix('2030-12-05T00:01:00Z')
      const gone = await ctx.sendAs('sandbox-pro', { method: 'GET', path: '/pets/1' })
      expectApiError(gone, 410, 'operation_removed')
      expect(quota(gone)).toEqual({ limit: '300', remaining: '299', reset })
      const unauthorized = await ctx.send({ method: 'GET', path: '/pets/1' })
      expectApiError(unauthorized, 401, 'missing_api_key')
      expect(quota(unauthorized)).toEqual({ limit: '60', remaining: '59', reset })
    })
  })
}
