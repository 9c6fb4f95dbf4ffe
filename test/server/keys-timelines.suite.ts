import { beforeEach, describe, expect, it } from 'vitest'

/** One answer, read whole. */
interface Answer {
  status: number
  json: unknown
}

type Json = Record<string, unknown>

/**
 * Contract §19's scenario keys and timelines over HTTP, written once: run on
 * one server in memory (keys-timelines.test.ts) and on two instances sharing
 * a Redis (test/state/redis/keys-timelines.test.ts), each call going to the
 * next origin in turn, so the store must carry keys, timelines and phases.
 *
 * @example
 * defineKeysTimelinesSuite(() => origins)
 */
export const defineKeysTimelinesSuite = (getOrigins: () => readonly string[]): void => {
  let turn = 0
  const origin = (): string => {
    const origins = getOrigins()
    return origins[turn++ % origins.length] as string
  }
  const call = async (
    method: string,
    path: string,
    { key, body }: { key?: string; body?: unknown } = {},
  ): Promise<Answer> => {
    const response = await fetch(`${origin()}${path}`, {
      method,
      headers: {
        ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    })
    const text = await response.text()
    return { status: response.status, json: text === '' ? undefined : JSON.parse(text) }
  }
  const pets = (key = 'sandbox-pro', query = '') => call('GET', `/v1/pets?limit=1${query}`, { key })
  const advance = (ms: number) => call('POST', '/__sandbox/clock', { body: { advanceMs: ms } })
  const journal = async () =>
    (await call('GET', '/__sandbox/requests')).json as {
      scenario: string
      status: number | null
      phase?: { timeline: string; index: number; scenario: string }
    }[]

  beforeEach(async () => {
    await call('POST', '/__sandbox/reset')
    await call('POST', '/__sandbox/clock', { body: { now: '2030-01-01T12:00:00Z' } })
  })

  describe('scenario keys over HTTP', () => {
    it('answers 503 to a client that sends nothing but sandbox-scenario-unavailable', async () => {
      const answer = await pets('sandbox-scenario-unavailable')
      expect(answer.status).toBe(503)
      expect((await journal()).at(-1)?.scenario).toBe('unavailable')
    })

    it('answers 401 invalid_api_key once a scenario key is revoked, until the reset', async () => {
      expect((await call('DELETE', '/__sandbox/keys/sandbox-scenario-empty')).status).toBe(204)
      const refused = await pets('sandbox-scenario-empty')
      expect(refused.status).toBe(401)
      expect((refused.json as Json).code).toBe('invalid_api_key')
      await call('POST', '/__sandbox/reset')
      expect((await pets('sandbox-scenario-empty')).status).toBe(200)
    })

    it('lists each scenario with its key, and leaves scenario keys out of the keys listing', async () => {
      const { json } = await call('GET', '/__sandbox/scenario')
      expect((json as { scenarios: Json[] }).scenarios).toContainEqual(
        expect.objectContaining({ name: 'slow', key: 'sandbox-scenario-slow' }),
      )
      const keys = (await call('GET', '/__sandbox/keys')).json as { key: string }[]
      expect(keys.some((k) => k.key.startsWith('sandbox-scenario-'))).toBe(false)
    })
  })

  describe('keys created with a scenario', () => {
    it('creates a key whose requests get its scenario, and lists it with the scenario', async () => {
      const created = await call('POST', '/__sandbox/keys', {
        body: { plan: 'pro', key: 'app-under-test', scenario: 'server-error' },
      })
      expect(created.status).toBe(201)
      expect(created.json).toMatchObject({ key: 'app-under-test', scenario: 'server-error' })
      expect((await pets('app-under-test')).status).toBe(500)
      expect((await pets('app-under-test', '&__scenario=default')).status).toBe(200)
      const keys = (await call('GET', '/__sandbox/keys')).json as Json[]
      expect(keys).toContainEqual(expect.objectContaining({ scenario: 'server-error' }))
    })

    it('answers 400 unknown_scenario naming the field for a key with an unknown scenario', async () => {
      const refused = await call('POST', '/__sandbox/keys', {
        body: { plan: 'pro', scenario: 'nope' },
      })
      expect(refused.status).toBe(400)
      expect(refused.json).toMatchObject({
        code: 'unknown_scenario',
        details: [{ field: 'scenario' }],
      })
      const wrongType = await call('POST', '/__sandbox/keys', {
        body: { plan: 'pro', scenario: 7 },
      })
      expect(wrongType.json).toMatchObject({ code: 'validation_failed' })
    })
  })

  describe('timelines', () => {
    it('moves through the phases of outage as the sandbox clock advances', async () => {
      const set = await call('PUT', '/__sandbox/scenario', { body: { name: 'outage' } })
      expect(set.json).toMatchObject({
        name: 'outage',
        timeline: { phase: { index: 0, scenario: 'default', leftMs: 60_000 } },
      })
      expect((await pets()).status).toBe(200)
      await advance(60_000)
      expect((await pets()).status).toBe(503)
      await advance(119_000)
      const status = (await call('GET', '/__sandbox/scenario')).json as Json
      expect(status).toMatchObject({
        name: 'outage',
        timeline: { phase: { index: 1, scenario: 'unavailable', leftMs: 1_000 } },
      })
      await advance(1_000)
      expect((await pets()).status).toBe(429)
      await advance(60_000)
      expect((await pets()).status).toBe(200)
      expect(((await call('GET', '/__sandbox/scenario')).json as Json).timeline).toMatchObject({
        phase: { index: 3, leftMs: null },
      })
      expect((await journal()).map((e) => [e.phase?.index, e.scenario, e.status])).toEqual([
        [0, 'default', 200],
        [1, 'unavailable', 503],
        [2, 'rate-limited', 429],
        [3, 'default', 200],
      ])
    })

    it('repeats an inline timeline with repeat: true, and names its phases in the HAR', async () => {
      const set = await call('PUT', '/__sandbox/scenario', {
        body: {
          timeline: [
            { scenario: 'unavailable', forMs: 1_000 },
            { scenario: 'empty', forMs: 2_000 },
          ],
          repeat: true,
        },
      })
      expect(set.status).toBe(200)
      expect(set.json).toMatchObject({ name: 'timeline', timeline: { repeat: true } })
      const statuses: number[] = []
      for (let i = 0; i < 4; i++) {
        statuses.push((await pets()).status)
        await advance(1_500)
      }
      // 0 s unavailable, 1.5 s empty, 3 s unavailable again, 4.5 s empty.
      expect(statuses).toEqual([503, 200, 503, 200])
      const har = (await call('GET', '/__sandbox/requests.har')).json as {
        log: { entries: { _sandbox: { phase?: Json } }[] }
      }
      expect(har.log.entries[0]?._sandbox.phase).toEqual({
        timeline: 'timeline',
        index: 0,
        scenario: 'unavailable',
      })
    })

    it('lets the flag and a key with a scenario win over the sticky timeline', async () => {
      await call('PUT', '/__sandbox/scenario', { body: { name: 'outage' } })
      await advance(60_000)
      expect((await pets('sandbox-pro', '&__scenario=default')).status).toBe(200)
      expect((await pets('sandbox-scenario-empty')).status).toBe(200)
      expect((await pets()).status).toBe(503)
    })

    it('starts outage named per request, or by its key, at the first request of the session', async () => {
      expect((await pets('sandbox-scenario-outage')).status).toBe(200)
      await advance(60_000)
      expect((await pets('sandbox-scenario-outage')).status).toBe(503)
      // The flag meets the same timeline of this session: one start per timeline and session.
      expect((await pets('sandbox-pro', '&__scenario=outage')).status).toBe(503)
      expect((await journal()).at(-1)?.phase).toEqual({
        timeline: 'outage',
        index: 1,
        scenario: 'unavailable',
      })
      await call('POST', '/__sandbox/reset')
      expect((await pets('sandbox-scenario-outage')).status).toBe(200)
    })

    it('answers worded 400s for bad timelines, each naming its field', async () => {
      const cases: [unknown, string, string][] = [
        [{ timeline: [] }, 'validation_failed', 'timeline'],
        [{ timeline: [{ scenario: 'empty', forMs: 0 }] }, 'validation_failed', 'timeline[0].forMs'],
        [
          { timeline: [{ scenario: 'empty', forMs: 1.5 }] },
          'validation_failed',
          'timeline[0].forMs',
        ],
        [
          { timeline: [{ scenario: 'empty', forMs: '10' }] },
          'validation_failed',
          'timeline[0].forMs',
        ],
        [
          { timeline: [{ scenario: 'empty', forMs: 5, extra: 1 }] },
          'validation_failed',
          'timeline[0].extra',
        ],
        [
          { timeline: [{ scenario: 'nope', forMs: 5 }] },
          'unknown_scenario',
          'timeline[0].scenario',
        ],
        [
          { timeline: [{ scenario: 'outage', forMs: 5 }] },
          'unknown_scenario',
          'timeline[0].scenario',
        ],
        [
          { timeline: Array.from({ length: 33 }, () => ({ scenario: 'empty', forMs: 1 })) },
          'validation_failed',
          'timeline',
        ],
        [{ timeline: 'outage' }, 'validation_failed', 'timeline'],
        [{ name: 'empty', timeline: [] }, 'validation_failed', '(body)'],
        [{ name: 'empty', repeat: true }, 'validation_failed', 'repeat'],
        [
          { timeline: [{ scenario: 'empty', forMs: 5 }], repeat: 'yes' },
          'validation_failed',
          'repeat',
        ],
      ]
      for (const [body, code, field] of cases) {
        const answer = await call('PUT', '/__sandbox/scenario', { body })
        expect(answer.status, JSON.stringify(body)).toBe(400)
        const error = answer.json as { code: string; message: string; details?: Json[] }
        expect(error.code, JSON.stringify(body)).toBe(code)
        expect(
          error.details?.map((d) => d.field),
          JSON.stringify(body),
        ).toContain(field)
      }
      // Nothing changed.
      expect(((await call('GET', '/__sandbox/scenario')).json as Json).name).toBe('default')
    })

    it('keeps a timeline with a Unicode-free, huge phase holding', async () => {
      const answer = await call('PUT', '/__sandbox/scenario', {
        body: { timeline: [{ scenario: 'empty', forMs: 8.64e15 }] },
      })
      expect(answer.status).toBe(200)
      await advance(365 * 86_400_000)
      expect((await pets()).status).toBe(200)
      expect((await journal()).at(-1)?.phase?.scenario).toBe('empty')
    })
  })
}
