import { beforeEach, describe, expect, it } from 'vitest'
import type { MultiInstanceTarget } from '../../conformance/targets/redis-target.js'

/** One answer, read whole. */
interface Answer {
  status: number
  headers: Headers
  json: unknown
}

/**
 * Contract §13, written once: several instances on one store answer as one
 * sandbox (quotas and ids exact under concurrency, keys, scenarios, clock,
 * sessions and the journal shared; `flaky` the same whichever instance
 * answers). Runs on one Redis (instances.test.ts) and on a Redis Cluster
 * (cluster.test.ts). Requests go to the instance named by their index.
 *
 * @example
 * defineSharedStateSuite(() => target)
 */
export const defineSharedStateSuite = (getTarget: () => MultiInstanceTarget): void => {
  const origin = (i: number): string => {
    const { origins } = getTarget()
    return origins[i % origins.length] as string
  }
  const call = async (
    i: number,
    method: string,
    path: string,
    {
      key,
      body,
      headers = {},
    }: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<Answer> => {
    const response = await fetch(`${origin(i)}${path}`, {
      method,
      headers: {
        ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? null : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    })
    const text = await response.text()
    return {
      status: response.status,
      headers: response.headers,
      json: text === '' ? undefined : JSON.parse(text),
    }
  }

  beforeEach(async () => {
    await call(0, 'POST', '/__sandbox/reset')
  })

  describe('instances on one store', () => {
    it('admit exactly 60 of 300 concurrent requests on a 60-per-minute key, spread over every instance', async () => {
      // A frozen clock, so the minute cannot turn during the burst.
      await call(1, 'POST', '/__sandbox/clock', { body: { now: '2030-01-01T12:00:10Z' } })
      const { json: created } = await call(2, 'POST', '/__sandbox/keys', { body: { plan: 'free' } })
      const key = (created as { key: string }).key
      const answers = await Promise.all(
        Array.from({ length: 300 }, (_, i) => call(i, 'GET', '/v1/pets?limit=1', { key })),
      )
      const statuses = answers.map((a) => a.status)
      expect(statuses.filter((s) => s === 200)).toHaveLength(60)
      expect(statuses.filter((s) => s === 429)).toHaveLength(240)
      const remaining = answers
        .filter((a) => a.status === 200)
        .map((a) => Number(a.headers.get('x-ratelimit-remaining')))
        .sort((a, b) => a - b)
      // Each admitted request saw its own count: 0..59 exactly once.
      expect(remaining).toEqual(Array.from({ length: 60 }, (_, i) => i))
    })

    // Decision 0069: an instance sends the requests one poll read in calls of up to
    // eight, each counted in turn inside the call: the ban and the journal's
    // numbers come out as they would one request at a time.
    it('ban a key after its 20 rejections, and number every request once, however many a call counts', async () => {
      await call(1, 'POST', '/__sandbox/clock', { body: { now: '2030-01-01T12:00:20Z' } })
      const { json: created } = await call(2, 'POST', '/__sandbox/keys', { body: { plan: 'free' } })
      const key = (created as { key: string }).key
      await call(0, 'DELETE', '/__sandbox/requests')
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, i) => call(i, 'GET', '/v1/pets?limit=1', { key })),
      )
      const outcomes = answers.map((a) =>
        a.status === 200 ? '200' : (a.json as { code: string }).code,
      )
      const count = (what: string) => outcomes.filter((o) => o === what).length
      expect([count('200'), count('rate_limit_exceeded'), count('api_key_banned')]).toEqual([
        60, 20, 20,
      ])
      const journal = (await call(1, 'GET', '/__sandbox/requests')).json as { seq: number }[]
      const seqs = journal.map((e) => e.seq)
      expect(seqs).toHaveLength(100)
      expect(new Set(seqs).size).toBe(100)
      expect((seqs.at(-1) as number) - (seqs[0] as number)).toBe(99)
    })

    it('never hand out one id twice under concurrent creates through every instance', async () => {
      const answers = await Promise.all(
        Array.from({ length: 90 }, (_, i) =>
          call(i, 'POST', '/v1/pets', {
            key: 'sandbox-enterprise',
            body: { name: `Pet ${i}`, categoryId: 1 },
          }),
        ),
      )
      expect(answers.map((a) => a.status)).toEqual(Array(90).fill(201))
      const ids = answers.map((a) => (a.json as { id: number }).id).sort((a, b) => a - b)
      expect(ids).toEqual(Array.from({ length: 90 }, (_, i) => 26 + i))
      for (const i of [0, 1, 2]) {
        const page = await call(i, 'GET', '/v1/pets?limit=100', { key: 'sandbox-enterprise' })
        expect(page.headers.get('x-total-count')).toBe('115')
      }
    })

    it('see a scenario switch and a reset made through another instance at once', async () => {
      await call(0, 'PUT', '/__sandbox/scenario', { body: { name: 'empty' } })
      for (const i of [1, 2]) {
        expect((await call(i, 'GET', '/__sandbox/scenario')).json).toMatchObject({ name: 'empty' })
        expect((await call(i, 'GET', '/v1/pets', { key: 'sandbox-pro' })).json).toEqual([])
      }
      await call(1, 'PUT', '/__sandbox/scenario', { body: { name: 'default' } })
      const created = await call(2, 'POST', '/v1/pets', {
        key: 'sandbox-pro',
        body: { name: 'Rex', categoryId: 2 },
      })
      expect(created.status).toBe(201)
      expect((await call(0, 'GET', '/v1/pets/26', { key: 'sandbox-pro' })).status).toBe(200)
      await call(0, 'POST', '/__sandbox/reset')
      for (const i of [1, 2]) {
        expect((await call(i, 'GET', '/v1/pets/26', { key: 'sandbox-pro' })).status).toBe(404)
        const page = await call(i, 'GET', '/v1/pets', { key: 'sandbox-pro' })
        expect(page.headers.get('x-total-count')).toBe('25')
      }
    })

    it('share keys: created through one, usable through another; revoked through a third, refused by all', async () => {
      const { json } = await call(0, 'POST', '/__sandbox/keys', { body: { plan: 'pro' } })
      const key = (json as { key: string }).key
      expect((await call(1, 'GET', '/v1/pets', { key })).status).toBe(200)
      expect(await call(2, 'DELETE', `/__sandbox/keys/${key}`)).toMatchObject({ status: 204 })
      for (const i of [0, 1, 2]) {
        const refused = await call(i, 'GET', '/v1/pets', { key })
        expect(refused.status).toBe(401)
        expect(refused.json).toMatchObject({ code: 'invalid_api_key' })
      }
      // A demo key revoked through one instance is refused by the others until the reset.
      await call(0, 'DELETE', '/__sandbox/keys/sandbox-business')
      expect((await call(1, 'GET', '/v1/pets', { key: 'sandbox-business' })).status).toBe(401)
    })

    it('share the clock, the quota headers and the journal', async () => {
      await call(0, 'POST', '/__sandbox/clock', { body: { now: '2030-06-01T00:00:00Z' } })
      expect((await call(2, 'GET', '/__sandbox/clock')).json).toEqual({
        now: '2030-06-01T00:00:00.000Z',
        frozen: true,
      })
      const first = await call(1, 'GET', '/v1/pets', { key: 'sandbox-free' })
      const second = await call(2, 'GET', '/v1/pets', { key: 'sandbox-free' })
      expect(first.headers.get('x-ratelimit-remaining')).toBe('59')
      expect(second.headers.get('x-ratelimit-remaining')).toBe('58')
      expect(second.headers.get('x-ratelimit-reset')).toBe(
        String(Date.parse('2030-06-01T00:01:00Z') / 1000),
      )
      const journal = (await call(0, 'GET', '/__sandbox/requests')).json as { seq: number }[]
      expect(journal.map((e) => e.seq)).toHaveLength(2)
      expect(journal[1]?.seq).toBeGreaterThan(journal[0]?.seq ?? 0)
    })

    it('find an answer by its Request-Id through another instance at once, each id unique (contract §22)', async () => {
      // Every answer of a burst spread over the instances, then each looked up through the next one.
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          call(i, 'GET', `/v1/pets?limit=1&n=${i}`, { key: 'sandbox-free' }),
        ),
      )
      const ids = answers.map((a) => a.headers.get('request-id') ?? '')
      for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{24}$/)
      expect(new Set(ids).size).toBe(30)
      for (const [i, id] of ids.entries()) {
        const found = (await call(i + 1, 'GET', `/__sandbox/requests?requestId=${id}`)).json as {
          requestId: string
          url: string
          response: { headers: Record<string, string> }
        }[]
        expect(found).toHaveLength(1)
        expect(found[0]?.requestId).toBe(id)
        expect(found[0]?.url).toContain(`n=${i}`)
        expect(found[0]?.response.headers['request-id']).toBe(id)
      }
      // The control API's own answers carry one too.
      expect((await call(2, 'GET', '/__sandbox/clock')).headers.get('request-id')).toMatch(/^req_/)
    })

    it("fail the same flaky requests whichever instance answers: the seed and the request's position decide", async () => {
      const outcomes = async (spread: boolean): Promise<string[]> => {
        const seen: string[] = []
        for (let i = 0; i < 40; i++) {
          try {
            const answer = await call(spread ? i : 0, 'GET', '/v1/pets?limit=1&__scenario=flaky', {
              key: 'sandbox-enterprise',
            })
            seen.push(String(answer.status))
          } catch {
            // The scenario failed the connection.
            seen.push('fails')
          }
        }
        return seen
      }
      const throughOne = await outcomes(false)
      await call(1, 'POST', '/__sandbox/reset')
      const throughAll = await outcomes(true)
      expect(throughAll).toEqual(throughOne)
      expect(new Set(throughOne)).toEqual(new Set(['200', '503', 'fails']))
    })

    it("feed every instance's dashboard the requests the others answered, each naming its instance", async () => {
      const { apps } = getTarget()
      const first = apps[0] as (typeof apps)[number]
      const { cursor } = await first.sandbox.state.recentRequests(undefined, 1)
      await call(1, 'GET', '/v1/pets?limit=1&from=one', { key: 'sandbox-pro' })
      await call(2, 'GET', '/v1/pets?limit=1&from=two', { key: 'sandbox-pro' })
      const recent = await first.sandbox.state.recentRequests(cursor, 50)
      expect(recent.entries.map((e) => [e.instance, new URL(e.url).search])).toEqual([
        [`instance-${1 % apps.length}`, '?limit=1&from=one'],
        [`instance-${2 % apps.length}`, '?limit=1&from=two'],
      ])
      expect(recent.skipped).toBe(0)
      // The journal of the session names them too.
      const journal = (await call(0, 'GET', '/__sandbox/requests')).json as { instance?: string }[]
      expect(journal.map((e) => e.instance)).toEqual(recent.entries.map((e) => e.instance))
    })

    it('share sessions: created through one, listed and dropped through others; bound keys land there', async () => {
      const { json } = await call(0, 'POST', '/__sandbox/keys', {
        body: { plan: 'pro', session: 'team-a' },
      })
      const key = (json as { key: string }).key
      const created = await call(1, 'POST', '/v1/pets', {
        key,
        body: { name: 'Only in team-a', categoryId: 1 },
      })
      expect(created.status).toBe(201)
      const sessions = (await call(2, 'GET', '/__sandbox/sessions')).json as {
        id: string
        pets: number
      }[]
      expect(sessions.map((s) => s.id)).toEqual(['default', 'team-a'])
      expect(sessions.find((s) => s.id === 'team-a')?.pets).toBe(26)
      const inDefault = await call(2, 'GET', '/v1/pets', { key: 'sandbox-pro' })
      expect(inDefault.headers.get('x-total-count')).toBe('25')
      expect(await call(0, 'DELETE', '/__sandbox/sessions/team-a')).toMatchObject({ status: 204 })
      // The key went with its session, on every instance.
      expect((await call(1, 'GET', '/v1/pets', { key })).status).toBe(401)
      expect(
        ((await call(2, 'GET', '/__sandbox/sessions')).json as { id: string }[]).map((s) => s.id),
      ).toEqual(['default'])
    })
  })

  describe('the dashboard on a shared store', () => {
    it('shows the scenario, the clock and the pets as they are now, whichever instance changed them', async () => {
      await call(0, 'PUT', '/__sandbox/scenario', { body: { name: 'slow' } })
      await call(0, 'POST', '/__sandbox/clock', { body: { now: '2030-01-01T12:00:10Z' } })
      await call(0, 'POST', '/v1/pets?__scenario=default', {
        key: 'sandbox-pro',
        body: { name: 'Shown', categoryId: 1 },
      })
      // No request through instance 1 first: its dashboard reads the store.
      expect((await call(1, 'GET', '/__sandbox/quotas')).json).toMatchObject({
        scenario: 'slow',
        frozen: true,
        now: Date.parse('2030-01-01T12:00:10Z'),
      })
      const pets = (await call(1, 'GET', '/__sandbox/pets?limit=100')).json as {
        pets: { name: string }[]
        total: number
      }
      expect(pets.total).toBe(26)
      expect(pets.pets.at(-1)?.name).toBe('Shown')
    })

    it('fills the quota gauges with the requests every instance counted, and revokes a key by its gauge', async () => {
      await call(0, 'POST', '/__sandbox/clock', { body: { now: '2030-01-01T12:00:10Z' } })
      const { json } = await call(0, 'POST', '/__sandbox/keys', { body: { plan: 'free' } })
      const key = (json as { key: string }).key
      for (let i = 0; i < 6; i++)
        expect((await call(i, 'GET', '/v1/pets', { key })).status).toBe(200)
      const snapshot = (await call(1, 'GET', '/__sandbox/quotas')).json as {
        quotas: { ref: string; source?: string; minute: { used: number }; day: { used: number } }[]
      }
      const gauge = snapshot.quotas.find((q) => q.source === 'runtime')
      expect(gauge).toMatchObject({ minute: { used: 6 }, day: { used: 6 } })
      // A page served by one instance may send its revoke to another (one address, several instances).
      const revoked = await call(2, 'DELETE', `/__sandbox/keys/by-ref/${gauge?.ref ?? ''}`)
      expect(revoked.status).toBe(204)
      for (const i of [0, 1, 2])
        expect((await call(i, 'GET', '/v1/pets', { key })).status).toBe(401)
    })
  })
}
