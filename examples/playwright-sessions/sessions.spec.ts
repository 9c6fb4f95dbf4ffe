import type { APIRequestContext, APIResponse } from '@playwright/test'
import { expect, test } from './session-fixture.js'

// Each test runs in its own session of ONE server, in parallel with the
// others (fullyParallel, 4 workers): it creates pets, spends a quota, moves the
// clock and switches the sticky scenario, and must see only its own.
const CASES = [
  { scenario: 'empty', pets: 1, clock: '2030-01-01T10:00:00.000Z', list: [200, 'ok'] },
  {
    scenario: 'server-error',
    pets: 2,
    clock: '2030-02-02T11:00:00.000Z',
    list: [500, 'internal_error'],
  },
  { scenario: 'paginated', pets: 3, clock: '2030-03-03T12:00:00.000Z', list: [200, 'ok'] },
  {
    scenario: 'unavailable',
    pets: 4,
    clock: '2030-04-04T13:00:00.000Z',
    list: [503, 'service_unavailable'],
  },
  {
    scenario: 'unauthorized',
    pets: 5,
    clock: '2030-05-05T14:00:00.000Z',
    list: [401, 'invalid_api_key'],
  },
  {
    scenario: 'rate-limited',
    pets: 6,
    clock: '2030-06-06T15:00:00.000Z',
    list: [429, 'rate_limit_exceeded'],
  },
  { scenario: 'banned', pets: 7, clock: '2030-07-07T16:00:00.000Z', list: [429, 'api_key_banned'] },
  { scenario: 'sunset', pets: 8, clock: '2030-08-08T17:00:00.000Z', list: [200, 'ok'] },
] as const

const SEEDED = 25
const ENTERPRISE = { authorization: 'Bearer sandbox-enterprise' }
const FREE = { authorization: 'Bearer sandbox-free' }
const minuteEnd = (iso: string) => String(Math.floor(Date.parse(iso) / 60_000 + 1) * 60)

/** Every pet of the session's own store, read past any sticky scenario. */
const ownPets = async (request: APIRequestContext) => {
  const response = await request.get('/v1/pets?limit=100&__scenario=default', {
    headers: ENTERPRISE,
  })
  expect(response.status()).toBe(200)
  return {
    total: Number(response.headers()['x-total-count']),
    pets: (await response.json()) as { id: number; name: string }[],
  }
}

const code = async (response: APIResponse) =>
  response.ok() ? 'ok' : ((await response.json()) as { code: string }).code

for (const c of CASES) {
  test(`session with ${c.pets} pets, scenario ${c.scenario}, clock ${c.clock}`, async ({
    request,
    page,
    session,
    baseURL,
  }) => {
    // A fresh session: the seeded pets, the default scenario, a full quota.
    expect((await ownPets(request)).total).toBe(SEEDED)
    expect((await (await request.get('/__sandbox/scenario')).json()).name).toBe('default')

    // Pets: ids continue the session's own sequence, whatever the other workers create.
    for (let i = 1; i <= c.pets; i++) {
      const created = await request.post('/v1/pets', {
        headers: ENTERPRISE,
        data: { name: `${session} pet ${i}`, categoryId: 1 },
      })
      expect(created.status()).toBe(201)
      expect((await created.json()).id).toBe(SEEDED + i)
    }

    // Clock: frozen at this test's own moment.
    const clock = await request.post('/__sandbox/clock', { data: { now: c.clock } })
    expect(await clock.json()).toEqual({ now: c.clock, frozen: true })

    // Quota: sandbox-free's 60 a minute, all spent here.
    const spent = await Promise.all(
      Array.from({ length: 60 }, () => request.get('/v1/pets?limit=1', { headers: FREE })),
    )
    expect(spent.map((r) => r.status())).toEqual(Array(60).fill(200))
    const remaining = spent.map((r) => Number(r.headers()['x-ratelimit-remaining']))
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i))

    // Sticky scenario.
    const scenario = await request.put('/__sandbox/scenario', { data: { name: c.scenario } })
    expect(scenario.status()).toBe(200)

    // Now everything this session sees is its own: nothing from the other workers.
    const own = await ownPets(request)
    expect(own.total).toBe(SEEDED + c.pets)
    expect(own.pets.slice(SEEDED).map((p) => p.name)).toEqual(
      Array.from({ length: c.pets }, (_, i) => `${session} pet ${i + 1}`),
    )
    expect(await (await request.get('/__sandbox/clock')).json()).toEqual({
      now: c.clock,
      frozen: true,
    })
    expect((await (await request.get('/__sandbox/scenario')).json()).name).toBe(c.scenario)
    const refused = await request.get('/v1/pets?limit=1&__scenario=default', { headers: FREE })
    expect(await code(refused)).toBe('rate_limit_exceeded')
    expect(refused.headers()['x-ratelimit-reset']).toBe(minuteEnd(c.clock))
    const listed = await request.get('/v1/pets', { headers: ENTERPRISE })
    expect([listed.status(), await code(listed)]).toEqual([...c.list])
    const journal = (await (await request.get('/__sandbox/requests')).json()) as {
      session: string
    }[]
    expect(journal.length).toBeGreaterThan(60)
    expect(new Set(journal.map((entry) => entry.session))).toEqual(new Set([session]))
    const sessions = (await (await request.get('/__sandbox/sessions')).json()) as {
      id: string
      pets: number
      scenario: string
    }[]
    expect(sessions.find((s) => s.id === session)).toMatchObject({
      pets: SEEDED + c.pets,
      scenario: c.scenario,
    })

    // A page in Chromium: its fetches carry the session header too.
    await page.route(`${baseURL}/app.html`, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>app</title>' }),
    )
    await page.goto('/app.html')
    const fromPage = await page.evaluate(async () => {
      const response = await fetch('/v1/pets?limit=100&__scenario=default', {
        headers: { authorization: 'Bearer sandbox-enterprise' },
      })
      return { status: response.status, total: response.headers.get('x-total-count') }
    })
    expect(fromPage).toEqual({ status: 200, total: String(SEEDED + c.pets) })
  })
}
