import { setupSandbox } from 'petstore-sandbox/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { ClientReport, RuleId } from '../../src/index.js'
import {
  type ClientOptions,
  createCarefulClient,
  createWithBlindRetry,
  fetchPetById,
  listWithKeyInUrl,
  retryEvery,
} from './pet-clients.js'

// Issue 23, proof: for each rule of contract §18, a careful client gets no
// finding and a misbehaving one exactly that finding. Real client code with
// fetch, intercepted by MSW; every wait moves the sandbox clock instead.
const sandbox = setupSandbox({
  keys: {
    'tiny-quota': { plan: 'enterprise', perMinute: 2, perDay: 1_000 },
    'one-a-minute': { plan: 'enterprise', perMinute: 1, perDay: 1_000 },
  },
})
beforeAll(() => sandbox.listen())
afterEach(() => sandbox.reset())
afterAll(() => sandbox.close())

const API = 'https://api.example.test/v1'
const waits: number[] = []
const options = (key = 'sandbox-pro', extra: Partial<ClientOptions> = {}): ClientOptions => ({
  api: API,
  key,
  sleep: async (ms) => {
    waits.push(ms)
    sandbox.clock.advance(ms)
  },
  ...extra,
})
const rules = (report: ClientReport): RuleId[] => report.findings.map((f) => f.rule)
/** The journal's seqs (they go on counting across resets), from the first. */
const seqs = (from: number, to: number): number[] =>
  sandbox.journal
    .list()
    .slice(from - 1, to)
    .map((e) => e.seq)

describe('retry-before-retry-after', () => {
  it('finds nothing when the client waits out Retry-After', async () => {
    sandbox.clock.set('2030-01-01T12:00:45Z')
    const client = createCarefulClient(options('tiny-quota'))
    for (let i = 0; i < 3; i++) expect((await client.listAvailable()) as Response).toBeTruthy()
    expect(await sandbox.requests.find({ status: 429 })).toHaveLength(1)
    expect((await sandbox.report()).findings).toEqual([])
  })

  it('finds the retries sent one second after a 429 that said 15 s', async () => {
    sandbox.clock.set('2030-01-01T12:00:45Z')
    await retryEvery(options('tiny-quota'), 1_000, 1)
    await retryEvery(options('tiny-quota'), 1_000, 1)
    expect(await retryEvery(options('tiny-quota'), 1_000, 20)).toEqual([
      ...Array(15).fill(429),
      200,
    ])
    const report = await sandbox.report()
    expect(rules(report)).toEqual(['retry-before-retry-after'])
    expect(report.findings[0]).toMatchObject({
      level: 'error',
      seqs: seqs(3, 17),
    })
    expect(report.findings[0]?.message).toContain('sent 14 requests before the Retry-After')
  })
})

describe('no-exponential-backoff', () => {
  it('finds nothing when the waits after failed connections double', async () => {
    sandbox.clock.set('2030-01-01T12:00:00Z')
    sandbox.scenario.set('network-error')
    waits.length = 0
    expect(await createCarefulClient(options()).listAvailable(4)).toBe('failed')
    expect(waits).toEqual([1_000, 2_000, 4_000])
    expect((await sandbox.report()).findings).toEqual([])
  })

  it('finds a client that retries a failed connection every second', async () => {
    sandbox.clock.set('2030-01-01T12:00:00Z')
    sandbox.scenario.set('network-error')
    expect(await retryEvery(options(), 1_000, 4)).toEqual(Array(4).fill('failed'))
    const report = await sandbox.report()
    expect(rules(report)).toEqual(['no-exponential-backoff'])
    expect(report.findings[0]).toMatchObject({ level: 'error', seqs: seqs(1, 4) })
    expect(report.findings[0]?.message).toContain('waits of 1 s, 1 s, 1 s')
  })

  it('finds nothing when waits follow a 503 Retry-After of 5 s, and finds a fixed 8 s', async () => {
    sandbox.clock.set('2030-01-01T12:00:00Z')
    sandbox.scenario.set('unavailable')
    waits.length = 0
    await createCarefulClient(options()).listAvailable(4)
    // max(Retry-After, 1 s · 2^n): the server's pace while it is the longer one (decision 0033).
    expect(waits).toEqual([5_000, 5_000, 5_000])
    expect((await sandbox.report()).findings).toEqual([])

    await sandbox.reset()
    sandbox.scenario.set('unavailable')
    // 6 s would be Retry-After plus jitter (up to half of it past it); 8 s is the client's own.
    await retryEvery(options(), 6_000, 4)
    expect(rules(await sandbox.report())).toEqual([])
    await sandbox.reset()
    sandbox.scenario.set('unavailable')
    await retryEvery(options(), 8_000, 4)
    expect(rules(await sandbox.report())).toEqual(['no-exponential-backoff'])
  })
})

describe('deprecated-operation', () => {
  it('finds nothing for a client that lists with the status filter', async () => {
    sandbox.clock.set('2030-01-01T12:00:00Z')
    await createCarefulClient(options()).listAvailable()
    expect((await sandbox.report()).findings).toEqual([])
  })

  it('warns about getPet before the removal date and errs from it on', async () => {
    sandbox.clock.set('2030-12-04T23:59:59Z')
    expect(await fetchPetById(options(), 1)).toBe(200)
    let report = await sandbox.report()
    expect(report.findings).toEqual([
      {
        rule: 'deprecated-operation',
        level: 'warning',
        message:
          '1 call to getPet (GET /v1/pets/{petId}), which is deprecated and removed on 5 December 2030. Use GET /v1/pets with its status filter instead.',
        seqs: seqs(1, 1),
      },
    ])
    sandbox.clock.advance(1_000)
    expect(await fetchPetById(options(), 1)).toBe(410)
    report = await sandbox.report()
    expect(report.findings.map((f) => [f.rule, f.level, f.seqs])).toEqual([
      ['deprecated-operation', 'warning', seqs(1, 1)],
      ['deprecated-operation', 'error', seqs(2, 2)],
    ])
  })
})

describe('key-in-query', () => {
  it('finds nothing when the key travels in the header only', async () => {
    await createCarefulClient(options()).listAvailable()
    expect((await sandbox.report()).findings).toEqual([])
  })

  it('finds a key in the query string, which the journal redacts', async () => {
    expect(await listWithKeyInUrl(options())).toBe(200)
    const report = await sandbox.report()
    expect(rules(report)).toEqual(['key-in-query'])
    expect(report.findings[0]).toMatchObject({ level: 'error', seqs: seqs(1, 1) })
    expect(report.findings[0]?.message).toContain('(api_key=…)')
    expect(sandbox.journal.list()[0]?.url).toContain('api_key=(redacted)')
  })
})

describe('duplicate-create-after-failure', () => {
  // The client gives up on an answer the sandbox holds (the slow scenario): the
  // test fires the client's give-up signal once the request is journaled.
  const givingUp = () => {
    const pending: AbortController[] = []
    const stop = sandbox.events.on('request', (entry) => {
      if (entry.delayMs > 0) pending.shift()?.abort(new Error('gave up'))
    })
    const giveUp = () => {
      const controller = new AbortController()
      pending.push(controller)
      return controller.signal
    }
    // The network recovers while the client waits.
    const sleep = async (ms: number) => {
      sandbox.clock.advance(ms)
      sandbox.scenario.set('default')
    }
    return { ...options('sandbox-pro', { giveUp, sleep }), stop }
  }
  const rex = { name: 'Rex', categoryId: 2 }

  it('finds nothing when the client looks the pet up before creating it again', async () => {
    sandbox.clock.set('2030-01-01T12:00:00Z')
    sandbox.scenario.set('slow')
    const client = givingUp()
    expect(await createCarefulClient(client).createOnce(rex)).toBe('already there')
    client.stop()
    expect(await sandbox.requests.find({ method: 'POST' })).toMatchObject([
      { status: 201, aborted: true },
    ])
    expect((await sandbox.report()).findings).toEqual([])
  })

  it('finds the same body sent again after a create that had in fact succeeded', async () => {
    sandbox.clock.set('2030-01-01T12:00:00Z')
    sandbox.scenario.set('slow')
    const client = givingUp()
    expect(await createWithBlindRetry(client, rex)).toEqual(['failed', 201])
    client.stop()
    const report = await sandbox.report()
    expect(rules(report)).toEqual(['duplicate-create-after-failure'])
    expect(report.findings[0]).toMatchObject({ level: 'warning', seqs: seqs(1, 2) })
    expect(report.findings[0]?.message).toContain('201 (pet 26)')
    expect(sandbox.db.pets.list({ limit: 100 }).pets.filter((p) => p.name === 'Rex')).toHaveLength(
      2,
    )
  })
})

describe('repeated-invalid-key', () => {
  it('finds nothing when the client stops at the first 401', async () => {
    await expect(createCarefulClient(options('not-a-key')).listAvailable()).rejects.toThrow(
      /refused the key/,
    )
    expect((await sandbox.report()).findings).toEqual([])
  })

  it('finds a refused key sent six more times', async () => {
    sandbox.clock.set('2030-01-01T12:00:00Z')
    expect(await retryEvery(options('not-a-key'), 1_000, 7)).toEqual(Array(7).fill(401))
    const report = await sandbox.report()
    expect(rules(report)).toEqual(['repeated-invalid-key'])
    expect(report.findings[0]).toMatchObject({ level: 'warning', seqs: seqs(1, 7) })
  })

  it('finds nothing for five more', async () => {
    expect(await retryEvery(options('not-a-key'), 1_000, 6)).toEqual(Array(6).fill(401))
    expect((await sandbox.report()).findings).toEqual([])
  })
})

describe('the report', () => {
  it('is empty for an empty session', async () => {
    expect(await sandbox.report()).toEqual({ session: 'default', requests: 0, findings: [] })
    expect(await sandbox.session('quiet').report()).toEqual({
      session: 'quiet',
      requests: 0,
      findings: [],
    })
  })

  it('lists findings of several rules in journal order', async () => {
    sandbox.clock.set('2030-01-01T12:00:00Z')
    await fetchPetById(options(), 1)
    await listWithKeyInUrl(options())
    await fetchPetById(options(), 2)
    expect((await sandbox.report()).findings.map((f) => [f.rule, f.seqs])).toEqual([
      ['deprecated-operation', [...seqs(1, 1), ...seqs(3, 3)]],
      ['key-in-query', seqs(2, 2)],
    ])
  })
})
