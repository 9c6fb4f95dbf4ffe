import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { controlRoutes } from '../../../src/server/control/handle-control-request.js'
import { ADMIN, api, control, portalClient, startAccountsServer } from './account-helpers.js'

let server: Awaited<ReturnType<typeof startAccountsServer>>
const a = { id: '', key: '', keyId: '' }
const b = { id: '', key: '', client: undefined as unknown as ReturnType<typeof portalClient> }

beforeAll(async () => {
  server = await startAccountsServer()
  const alice = portalClient(server.origin)
  a.id = String((await alice.signup('alice@example.com')).body?.id)
  const made = await alice.api('POST', '/keys', { name: 'alice', plan: 'pro' })
  a.key = String(made.body?.key)
  a.keyId = String(made.body?.id)
  b.client = portalClient(server.origin)
  b.id = String((await b.client.signup('bob@example.com')).body?.id)
  b.key = String((await b.client.api('POST', '/keys', { name: 'bob', plan: 'free' })).body?.key)
  // Alice's sandbox has a pet, a request, a scenario and a frozen clock of its own.
  expect(
    (
      await api(server.origin, a.key, '/v1/pets', {
        method: 'POST',
        body: { name: 'Alice pet', categoryId: 1 },
      })
    ).status,
  ).toBe(201)
  const asAdmin = { 'x-sandbox-session': a.id }
  await control(server.origin, 'PUT', '/scenario', ADMIN, { name: 'empty' }, asAdmin)
  await control(server.origin, 'POST', '/clock', ADMIN, { now: '2031-05-05T00:00:00Z' }, asAdmin)
})
afterAll(() => server.close())

/** Alice's sandbox as the admin sees it: what no call of Bob's may change. */
const aliceState = async () => {
  const asAdmin = { 'x-sandbox-session': a.id }
  const sessions = await control(server.origin, 'GET', '/sessions')
  const session = sessions.body.find((s: { id: string }) => s.id === a.id)
  const requests = await control(server.origin, 'GET', '/requests', ADMIN, undefined, asAdmin)
  const clock = await control(server.origin, 'GET', '/clock', ADMIN, undefined, asAdmin)
  const keys = await control(server.origin, 'GET', '/keys', ADMIN, undefined, asAdmin)
  return {
    pets: session?.pets,
    scenario: session?.scenario,
    requests: requests.body.length,
    clock: clock.body,
    keys: keys.body,
    accounts: (await control(server.origin, 'GET', '/accounts')).body.total,
  }
}

/** A body each route accepts, so that a session route really acts (and would act on Alice's sandbox if it could). */
const BODIES: Record<string, unknown> = {
  'PUT /scenario': { name: 'server-error' },
  'POST /clock': { advanceMs: 3_600_000 },
  'POST /keys': { plan: 'free' },
  'PUT /mode': { mode: 'sandbox' },
  'POST /requests/expect': { method: 'GET', path: '/v1/pets' },
  'POST /accounts/{id}/keys': { plan: 'enterprise' },
}

const fill = (template: string): string =>
  template
    .replace('{id}', a.id)
    .replace('{key}', encodeURIComponent(a.key))
    .replace(/\{[^}]+\}/g, 'x')

describe("an account's own control (contract §22)", () => {
  const routes = controlRoutes()

  it('covers every control route, each with its reach', () => {
    expect(routes.length).toBeGreaterThan(15)
    expect(
      routes.filter((r) => r.scope === 'beyond').map((r) => `${r.method} ${r.template}`),
    ).toEqual(
      expect.arrayContaining([
        'GET /sessions',
        'DELETE /sessions/{id}',
        'GET /mode',
        'PUT /mode',
        'GET /accounts',
        'DELETE /accounts/{id}',
        'POST /accounts/{id}/keys',
        'POST /invites',
      ]),
    )
  })

  it.each(routes.map((r) => [`${r.method} ${r.template}`, r] as const))(
    "%s with another account's key never reaches that account's sandbox",
    async (_name, route) => {
      const before = await aliceState()
      const body =
        BODIES[`${route.method} ${route.template}`] ??
        (route.method === 'GET' || route.method === 'DELETE' ? undefined : {})
      // Bob names Alice's sandbox every way there is.
      const answer = await control(
        server.origin,
        route.method,
        `${fill(route.template)}?__session=${a.id}`,
        b.key,
        body,
        { 'x-sandbox-session': a.id },
      )
      if (route.scope === 'beyond') {
        expect(answer.status).toBe(403)
        expect(answer.body).toMatchObject({ code: 'forbidden' })
      } else {
        expect(answer.status).not.toBe(403)
        expect(answer.status).toBeLessThan(500)
      }
      expect(JSON.stringify(answer.body ?? '')).not.toContain('Alice pet')
      expect(await aliceState()).toEqual(before)
      // Alice's key still works, in her sandbox.
      const hers = await api(server.origin, a.key, '/v1/pets?limit=100')
      expect(hers.status).toBe(200)
      await control(server.origin, 'DELETE', '/requests', ADMIN, undefined, {
        'x-sandbox-session': a.id,
      })
    },
  )

  it("acts on the account's own sandbox: Bob's reset, scenario and clock are Bob's", async () => {
    await control(server.origin, 'PUT', '/scenario', b.key, { name: 'empty' })
    expect((await api(server.origin, b.key)).body).toEqual([])
    const clock = await control(server.origin, 'POST', '/clock', b.key, {
      now: '2032-01-01T00:00:00Z',
    })
    expect(clock.body).toEqual({ now: '2032-01-01T00:00:00.000Z', frozen: true })
    const journal = await control(server.origin, 'GET', '/requests', b.key)
    expect(journal.status).toBe(200)
    expect(journal.body.every((e: { session: string }) => e.session === b.id)).toBe(true)
    expect((await control(server.origin, 'GET', '/report', b.key)).status).toBe(200)
    expect((await control(server.origin, 'POST', '/reset', b.key)).status).toBe(204)
    expect((await control(server.origin, 'GET', '/scenario', b.key)).body.name).toBe('default')
    // reset drops run-time keys of a session, never the account's keys.
    expect((await api(server.origin, b.key)).status).toBe(200)
    const all = await control(server.origin, 'POST', '/reset?sessions=all', b.key)
    expect(all.status).toBe(403)
    const enterprise = await control(server.origin, 'POST', '/keys', b.key, { plan: 'enterprise' })
    expect(enterprise.status).toBe(403)
    const elsewhere = await control(server.origin, 'POST', '/keys', b.key, {
      plan: 'free',
      session: a.id,
    })
    expect(elsewhere.status).toBe(403)
  })

  it('takes the portal cookie with the CSRF header, and refuses a cookie write without it', async () => {
    const withToken = await b.client.call('PUT', '/__sandbox/scenario', { name: 'empty' })
    expect(withToken.status).toBe(200)
    const csrf = b.client.csrf
    b.client.csrf = undefined
    const without = await b.client.call('PUT', '/__sandbox/scenario', { name: 'default' })
    expect(without.status).toBe(403)
    expect(without.body).toMatchObject({ code: 'csrf_failed' })
    b.client.csrf = csrf
    expect((await b.client.call('GET', '/__sandbox/scenario')).body.name).toBe('empty')
  })

  it('refuses a revoked or unknown account key on the control API (403), and nothing without the admin token', async () => {
    const unknown = await control(server.origin, 'GET', '/clock', `sk_acct_${'0'.repeat(48)}`)
    expect(unknown.status).toBe(403)
    const none = await fetch(`${server.origin}/__sandbox/clock`)
    expect(none.status).toBe(403)
    expect((await control(server.origin, 'GET', '/clock')).status).toBe(200)
  })
})
