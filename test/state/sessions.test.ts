import { describe, expect, it } from 'vitest'
import { createSandboxCore, type SandboxCore } from '../../src/index.js'

const ORIGIN = 'https://api.example.test'

const call = async (
  sandbox: SandboxCore,
  path: string,
  init: { method?: string; key?: string; headers?: Record<string, string>; body?: unknown } = {},
) => {
  const response = await sandbox.handle({
    method: init.method ?? 'GET',
    url: `${ORIGIN}/v1${path}`,
    headers: { authorization: `Bearer ${init.key ?? 'sandbox-enterprise'}`, ...init.headers },
    body: init.body ?? null,
  })
  if (response === null) throw new Error(`${path} is not an API path`)
  return { ...response, json: response.body === null ? null : JSON.parse(response.body) }
}

const create = (sandbox: SandboxCore, session: string, name: string) =>
  call(sandbox, `/pets?__session=${session}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: { name, categoryId: 1 },
  })

describe('sessions', () => {
  it('starts every session from the same seeded pets, with ids of its own', async () => {
    const sandbox = createSandboxCore({ seed: 7 })
    const inDefault = await call(sandbox, '/pets?limit=100')
    const inA = await call(sandbox, '/pets?limit=100&__session=a')
    expect(inA.json).toEqual(inDefault.json)
    expect((await create(sandbox, 'a', 'Only in a')).json).toMatchObject({ id: 26 })
    expect((await create(sandbox, 'b', 'Only in b')).json).toMatchObject({ id: 26 })
    expect(sandbox.db.pets.count).toBe(25)
    expect(sandbox.session('a').db.pets.count).toBe(26)
    expect(JSON.stringify((await call(sandbox, '/pets?limit=100&__session=b')).json)).not.toContain(
      'Only in a',
    )
  })

  it('keeps scenario, clock, quota and journal apart', async () => {
    const sandbox = createSandboxCore()
    const a = sandbox.session('a')
    a.scenario.set('empty')
    a.clock.set('2030-12-05T00:00:00Z')
    expect((await call(sandbox, '/pets?__session=a')).json).toEqual([])
    expect((await call(sandbox, '/pets/1?__session=a')).status).toBe(410)
    expect((await call(sandbox, '/pets/1')).status).toBe(200)
    for (let i = 0; i < 60; i++) await call(sandbox, '/pets?__session=q', { key: 'sandbox-free' })
    expect((await call(sandbox, '/pets?__session=q', { key: 'sandbox-free' })).status).toBe(429)
    expect((await call(sandbox, '/pets', { key: 'sandbox-free' })).status).toBe(200)
    expect(sandbox.session('q').journal.list()).toHaveLength(61)
    expect(sandbox.journal.list().every((entry) => entry.session === 'default')).toBe(true)
    expect(a.journal.list().map((entry) => entry.session)).toEqual(['a', 'a'])
  })

  it('lets the flag win over the header', async () => {
    const sandbox = createSandboxCore()
    await create(sandbox, 'flag', 'Rex')
    const response = await call(sandbox, '/pets?limit=100&__session=flag', {
      headers: { 'x-sandbox-session': 'header' },
    })
    expect(response.headers['X-Total-Count']).toBe('26')
    expect(sandbox.session('header').journal.list()).toHaveLength(0)
  })

  it.each([
    ['__session=', 'an empty id', '__session'],
    [`__session=${'x'.repeat(65)}`, 'an id of 65 characters', '__session'],
    ['__session=a%2Fb', 'a slash', '__session'],
    ['__session=%C3%A9', 'a non-ASCII letter', '__session'],
    ['__session=a&__session=b', 'a repeated flag', '__session'],
  ])('answers 400 invalid_parameter to %s (%s)', async (query, _what, field) => {
    const sandbox = createSandboxCore()
    const response = await call(sandbox, `/pets?${query}`)
    expect(response.status).toBe(400)
    expect(response.json).toMatchObject({ code: 'invalid_parameter', details: [{ field }] })
    expect(sandbox.sessions.list().map((s) => s.id)).toEqual(['default'])
  })

  it('answers 400 to a bad X-Sandbox-Session header, naming it', async () => {
    const sandbox = createSandboxCore()
    const response = await call(sandbox, '/pets', { headers: { 'x-sandbox-session': 'a b' } })
    expect(response.json).toMatchObject({
      code: 'invalid_parameter',
      details: [{ field: 'X-Sandbox-Session' }],
    })
  })

  it('never echoes __session in Link URLs', async () => {
    const sandbox = createSandboxCore()
    const response = await call(sandbox, '/pets?limit=5&__session=paging')
    expect(response.headers.Link).toMatch(/cursor=/)
    expect(response.headers.Link).not.toContain('__session')
  })

  it('sends a key created in a session to that session, whatever the request asks for', async () => {
    const sandbox = createSandboxCore()
    const { key } = sandbox.keys.create({ plan: 'pro', session: 'alice' })
    await call(sandbox, '/pets', {
      key,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sandbox-session': 'bob' },
      body: { name: 'Alice’s', categoryId: 2 },
    })
    expect(sandbox.session('alice').db.pets.count).toBe(26)
    expect(sandbox.sessions.list().map((s) => s.id)).toEqual(['default', 'alice'])
    // The key does not exist outside its session's listing, and is refused nowhere.
    expect(sandbox.keys.list().some((k) => k.key === key)).toBe(false)
    expect(
      sandbox
        .session('alice')
        .keys.list()
        .find((k) => k.key === key)?.session,
    ).toBe('alice')
  })

  it('revokes a demo key in one session only', async () => {
    const sandbox = createSandboxCore()
    expect(sandbox.session('a').keys.revoke('sandbox-free')).toBe(true)
    expect((await call(sandbox, '/pets?__session=a', { key: 'sandbox-free' })).status).toBe(401)
    expect((await call(sandbox, '/pets', { key: 'sandbox-free' })).status).toBe(200)
    await sandbox.session('a').reset()
    expect((await call(sandbox, '/pets?__session=a', { key: 'sandbox-free' })).status).toBe(200)
  })

  it('refuses a key text that exists in another session', () => {
    const sandbox = createSandboxCore()
    sandbox.keys.create({ plan: 'free', key: 'team-key', session: 'a' })
    expect(() => sandbox.session('b').keys.create({ plan: 'free', key: 'team-key' })).toThrow(
      /exists already/,
    )
  })

  it('drops a session idle for longer than sessionTtlMs, within a second, on the next use of another', async () => {
    let now = Date.parse('2030-01-01T00:00:00Z')
    const sandbox = createSandboxCore({ now: () => now, sessionTtlMs: 60_000 })
    await create(sandbox, 'idle', 'Forgotten')
    now += 59_999
    await call(sandbox, '/pets?__session=busy')
    expect(sandbox.sessions.list().map((s) => s.id)).toEqual(['default', 'idle', 'busy'])
    now += 1_000
    await call(sandbox, '/pets?__session=busy')
    expect(sandbox.sessions.list().map((s) => s.id)).toEqual(['default', 'busy'])
    // Coming back starts it fresh from the seed.
    expect((await call(sandbox, '/pets?limit=100&__session=idle')).headers['X-Total-Count']).toBe(
      '25',
    )
  })

  it('never drops default, however long it is idle', async () => {
    let now = 0
    const sandbox = createSandboxCore({ now: () => now, sessionTtlMs: 1_000 })
    await create(sandbox, 'default', 'Kept')
    now += 10_000_000
    await call(sandbox, '/pets?__session=other')
    expect(sandbox.db.pets.count).toBe(26)
  })

  it('drops the least recently used session past maxSessions', async () => {
    const sandbox = createSandboxCore({ maxSessions: 3 })
    await call(sandbox, '/pets?__session=one')
    await call(sandbox, '/pets?__session=two')
    await call(sandbox, '/pets?__session=one')
    await call(sandbox, '/pets?__session=three')
    expect(sandbox.sessions.list().map((s) => s.id)).toEqual(['default', 'one', 'three'])
  })

  it('answers 503 session_limit_reached when no session can be dropped', async () => {
    const sandbox = createSandboxCore({ maxSessions: 1 })
    const response = await call(sandbox, '/pets?__session=more')
    expect(response.status).toBe(503)
    expect(response.json).toMatchObject({ code: 'session_limit_reached', status: 503 })
    expect(response.headers['Retry-After']).toBe('1')
    expect((await call(sandbox, '/pets')).status).toBe(200)
  })

  it('drops a session on request, but never default', async () => {
    const sandbox = createSandboxCore()
    await create(sandbox, 'gone', 'Rex')
    expect(sandbox.sessions.drop('gone')).toBe(true)
    expect(sandbox.sessions.drop('gone')).toBe(false)
    expect(() => sandbox.sessions.drop('default')).toThrow(/never dropped/)
  })

  it('resets one session without touching another', async () => {
    const sandbox = createSandboxCore()
    await create(sandbox, 'a', 'A')
    await create(sandbox, 'b', 'B')
    await sandbox.session('a').reset()
    expect(sandbox.session('a').db.pets.count).toBe(25)
    expect(sandbox.session('b').db.pets.count).toBe(26)
  })

  it('names the session in every event', async () => {
    const sandbox = createSandboxCore()
    const seen: string[] = []
    sandbox.events.on('change', (e) => {
      seen.push(`change:${e.session}:${e.pet.name}`)
    })
    sandbox.events.on('scenario', (e) => {
      seen.push(`scenario:${e.session}:${e.name}`)
    })
    sandbox.events.on('session', (e) => {
      seen.push(`session:${e.session}:${e.type}`)
    })
    sandbox.events.on('request', (e) => {
      seen.push(`request:${e.session}:${e.status}`)
    })
    await create(sandbox, 'ev', 'Rex')
    sandbox.session('ev').scenario.set('slow')
    sandbox.sessions.drop('ev')
    expect(seen).toEqual([
      'session:ev:create',
      'change:ev:Rex',
      'request:ev:201',
      'scenario:ev:slow',
      'session:ev:drop',
    ])
  })

  it('refuses a bad session id in code with a clear TypeError', () => {
    const sandbox = createSandboxCore()
    expect(() => sandbox.session('no spaces')).toThrow(/Failed to select session/)
    expect(() => sandbox.keys.create({ plan: 'free', session: '' })).toThrow(/not a session id/)
  })
})
