import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandboxCore, type SandboxCore } from '../../src/index.js'
// Registers the `store` option's Redis opener, as the server module does.
import '../../src/server/redis-store.js'
import { reportClient } from '../../src/judge/report-client.js'
import { startTestRedis, type TestRedis } from '../support/redis-server.js'

// Issue 24, decision 0026: a session belongs to the callers who hold a valid key. A request
// that fails authentication never creates, touches or evicts one (it is answered and journaled
// in `default`), and at the session limit a caller evicts only its own sessions unless another
// caller holds more than it would. Run on the in-memory state and on a real Redis.

const ORIGIN = 'https://api.example.test'
const VICTIM_KEY = 'victim-own-key'

let redis: TestRedis | undefined
let prefixes = 0
beforeAll(async () => {
  redis = await startTestRedis()
}, 30_000)
afterAll(async () => {
  await redis?.dispose()
})

type Make = (options?: { maxSessions?: number }) => Promise<SandboxCore>

const STATES: [string, Make][] = [
  [
    'memory',
    async (options = {}) =>
      createSandboxCore({ keys: { [VICTIM_KEY]: 'pro' }, onError: () => {}, ...options }),
  ],
  [
    'redis',
    async (options = {}) => {
      // A clock that moves 1 ms per read: Redis orders sessions by last use in ms.
      let t = Date.parse('2030-01-01T00:00:00Z')
      const sandbox = createSandboxCore({
        keys: { [VICTIM_KEY]: 'pro' },
        onError: () => {},
        now: () => t++,
        store: { url: (redis as TestRedis).url, prefix: `callers${++prefixes}:` },
        ...options,
      })
      await sandbox.ready
      return sandbox
    },
  ],
]

const call = async (
  sandbox: SandboxCore,
  path: string,
  init: { key?: string | null; address?: string; method?: string; body?: unknown } = {},
) => {
  const answer = await sandbox.answer({
    method: init.method ?? 'GET',
    url: `${ORIGIN}/v1${path}`,
    headers: {
      ...(init.key === null ? {} : { authorization: `Bearer ${init.key ?? 'sandbox-enterprise'}` }),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body ?? null,
    clientAddress: init.address ?? '203.0.113.9',
  })
  if (answer === null) throw new Error(`${path} is not an API path`)
  return answer
}

const ids = async (sandbox: SandboxCore): Promise<string[]> =>
  (await sandbox.state.listSessions()).map((s) => s.id)

const lastUsed = async (sandbox: SandboxCore, id: string): Promise<string | undefined> =>
  (await sandbox.state.listSessions()).find((s) => s.id === id)?.lastUsed

describe.each(STATES)('sessions belong to callers (%s)', (_name, make) => {
  it('opens no session for 1,050 requests that fail authentication, and answers them in default', async () => {
    const sandbox = await make({ maxSessions: 20 })
    // A user's session with a pet and a key bound to it.
    const pet = await call(sandbox, '/pets?__session=victim', {
      key: VICTIM_KEY,
      method: 'POST',
      body: { name: 'Kept', categoryId: 1 },
    })
    expect(pet.response.status).toBe(201)
    const bound = await (await sandbox.state.session('victim')).createKey({ plan: 'pro' })
    const before = await lastUsed(sandbox, 'victim')

    const tries = [null, 'not-a-key', 'Basic abc', 'sandbox-free sandbox-pro']
    for (let i = 0; i < 1_050; i++) {
      const key = tries[i % tries.length] as string | null
      const answer = await call(sandbox, `/pets?__session=evict-${i}`, {
        key,
        address: `198.51.100.${i % 250}`,
      })
      expect(answer.response.status).toBe(401)
      expect(answer.entry.session).toBe('default')
    }
    // Naming the user's own session without a key touches it no more than any other;
    // it is journaled there, since the session exists (decision 0047).
    const probe = await call(sandbox, '/pets?__session=victim', { key: null })
    expect(probe.entry.session).toBe('victim')

    expect(await ids(sandbox)).toEqual(['default', 'victim'])
    expect(await lastUsed(sandbox, 'victim')).toBe(before)
    const list = await call(sandbox, '/pets?limit=100', { key: bound.key })
    expect(list.response.status).toBe(200)
    expect(list.entry.session).toBe('victim')
    expect(list.response.body).toContain('"Kept"')
    const journal = await (await sandbox.state.session('default')).listJournal()
    expect(journal.filter((entry) => entry.status === 401).length).toBeGreaterThan(0)
    expect(await (await sandbox.state.session('victim')).listJournal()).toHaveLength(3)
    await sandbox.disconnect()
  })

  it('answers a demo key revoked in a session in default, without touching that session', async () => {
    const sandbox = await make()
    await call(sandbox, '/pets?__session=w1')
    expect(await (await sandbox.state.session('w1')).revokeKey('sandbox-enterprise')).toBe(true)
    const before = await lastUsed(sandbox, 'w1')
    const answer = await call(sandbox, '/pets?__session=w1')
    expect(answer.response.status).toBe(401)
    expect(JSON.parse(answer.response.body ?? '')).toMatchObject({ code: 'invalid_api_key' })
    // Journaled in w1, which exists (decision 0047), without touching it.
    expect(answer.entry.session).toBe('w1')
    expect(await lastUsed(sandbox, 'w1')).toBe(before)
    // The key is valid in default and in a session not opened yet.
    expect((await call(sandbox, '/pets')).response.status).toBe(200)
    expect((await call(sandbox, '/pets?__session=w2')).entry.session).toBe('w2')
    await sandbox.disconnect()
  })

  it('journals requests with an invalid key in the existing session they name, so its report finds repeated-invalid-key', async () => {
    const sandbox = await make()
    await call(sandbox, '/pets?__session=judged')
    const w = await sandbox.state.session('judged')
    await w.setClock('2030-01-01T12:00:00Z')
    const before = await lastUsed(sandbox, 'judged')
    for (let i = 0; i < 7; i++) {
      const answer = await call(sandbox, '/pets?__session=judged', { key: 'not-a-key' })
      expect(answer.response.status).toBe(401)
      expect(answer.entry.session).toBe('judged')
      // By the session's clock, not default's.
      expect(answer.entry.time).toBe('2030-01-01T12:00:00.000Z')
    }
    expect(await lastUsed(sandbox, 'judged')).toBe(before)
    const entries = await (await sandbox.state.openedSession('judged'))?.listJournal()
    expect(entries?.map((e) => e.status)).toEqual([200, 401, 401, 401, 401, 401, 401, 401])
    expect(reportClient(entries ?? [], { session: 'judged' }).findings.map((f) => f.rule)).toEqual([
      'repeated-invalid-key',
    ])
    // A session that does not exist is neither created nor journaled in: default keeps those.
    const stray = await call(sandbox, '/pets?__session=never-made', { key: 'not-a-key' })
    expect(stray.entry.session).toBe('default')
    expect(await ids(sandbox)).toEqual(['default', 'judged'])
    expect(await sandbox.state.openedSession('never-made')).toBeUndefined()
    await sandbox.disconnect()
  })

  it('lets one demo-key caller evict only its own sessions, however many it opens', async () => {
    const sandbox = await make({ maxSessions: 10 })
    for (const id of ['own-1', 'own-2', 'own-3'])
      await call(sandbox, `/pets?__session=${id}`, { key: VICTIM_KEY, address: '192.0.2.1' })
    await call(sandbox, '/pets?__session=neighbour', { key: 'sandbox-free', address: '192.0.2.2' })
    for (let i = 0; i < 60; i++)
      await call(sandbox, `/pets?__session=flood-${i}`, { address: '198.51.100.7' })
    const alive = await ids(sandbox)
    expect(alive).toHaveLength(10)
    expect(alive).toEqual(expect.arrayContaining(['default', 'own-1', 'own-2', 'own-3']))
    expect(alive).toContain('neighbour')
    // The flood kept its five most recent sessions.
    expect(alive.filter((id) => id.startsWith('flood-')).sort()).toEqual(
      ['flood-55', 'flood-56', 'flood-57', 'flood-58', 'flood-59'].sort(),
    )
    await sandbox.disconnect()
  })

  it('counts a public demo key per address, so two addresses are two callers', async () => {
    const sandbox = await make({ maxSessions: 5 })
    for (let i = 0; i < 2; i++)
      await call(sandbox, `/pets?__session=a-${i}`, { key: 'sandbox-free', address: '10.0.0.1' })
    // Another /64 of IPv6 is another caller; the same /64 is the same caller.
    for (let i = 0; i < 8; i++)
      await call(sandbox, `/pets?__session=b-${i}`, {
        key: 'sandbox-free',
        address: `2001:db8:0:1::${i + 1}`,
      })
    expect(await ids(sandbox)).toEqual(expect.arrayContaining(['a-0', 'a-1']))
    expect((await ids(sandbox)).filter((id) => id.startsWith('b-'))).toEqual(['b-6', 'b-7'])
    await sandbox.disconnect()
  })

  it('brings a bigger holder down to the opener’s own count, never below', async () => {
    const sandbox = await make({ maxSessions: 10 })
    for (let i = 0; i < 7; i++) await call(sandbox, `/pets?__session=big-${i}`, { key: VICTIM_KEY })
    for (let i = 0; i < 20; i++)
      await call(sandbox, `/pets?__session=small-${i}`, { key: 'sandbox-free' })
    const alive = await ids(sandbox)
    // Nine sessions besides default, shared 5 and 4: the opener stops at a tie.
    expect(alive.filter((id) => id.startsWith('big-'))).toEqual([
      'big-2',
      'big-3',
      'big-4',
      'big-5',
      'big-6',
    ])
    expect(alive.filter((id) => id.startsWith('small-'))).toHaveLength(4)
    await sandbox.disconnect()
  })
})
