import { setupSandbox } from 'petstore-sandbox/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { ClientReport } from '../../src/index.js'
import { type ClientOptions, createCarefulClient, createWithBlindRetry } from './pet-clients.js'

// Contract §19's judging bullet: a 201 the client never received whole counts
// for duplicate-create-after-failure. Real fetch clients, intercepted by MSW;
// waits move the sandbox clock. The fault stays on for the first request only:
// the network "recovers" when the client sleeps.
const sandbox = setupSandbox()
beforeAll(() => sandbox.listen())
afterEach(() => sandbox.reset())
afterAll(() => sandbox.close())

const API = 'https://api.example.test/v1'
const rex = { name: 'Rex the Unlost', categoryId: 2 }
const client = (): ClientOptions => ({
  api: API,
  key: 'sandbox-pro',
  sleep: async (ms) => {
    sandbox.clock.advance(ms)
    sandbox.scenario.set('default')
  },
})
const rules = (report: ClientReport) => report.findings.map((f) => f.rule)
const rexes = () => sandbox.db.pets.list({ limit: 100 }).pets.filter((p) => p.name === rex.name)

/** A client that treats a body it cannot read as a failed create, and sends it again. */
const createReadingBodyWithBlindRetry = async ({ api, key, sleep }: ClientOptions) => {
  for (let n = 0; n < 2; n++) {
    try {
      const response = await fetch(`${api}/pets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(rex),
      })
      return [n, response.status, ((await response.json()) as { id: number }).id]
    } catch {
      await sleep(1000)
    }
  }
  return 'failed'
}

describe('duplicate-create-after-failure after a fault inside the answer', () => {
  it('flags a client that re-posts the same body after commit-then-drop', async () => {
    sandbox.clock.set('2030-01-01T12:00:00Z')
    sandbox.scenario.set('commit-then-drop')
    expect(await createWithBlindRetry(client(), rex)).toEqual(['failed', 201])
    const report = await sandbox.report()
    expect(rules(report)).toEqual(['duplicate-create-after-failure'])
    expect(report.findings[0]?.message).toContain('commit-then-drop')
    expect(rexes()).toHaveLength(2)
    expect(await sandbox.requests.find({ method: 'POST' })).toMatchObject([
      { status: 201, fault: 'commit-then-drop', delivered: false },
      { status: 201, delivered: true },
    ])
  })

  it('finds nothing when the client reads back (GET /v1/pets) and does not re-post', async () => {
    sandbox.clock.set('2030-01-01T12:00:00Z')
    sandbox.scenario.set('commit-then-drop')
    expect(await createCarefulClient(client()).createOnce(rex)).toBe('already there')
    expect((await sandbox.report()).findings).toEqual([])
    expect(rexes()).toHaveLength(1)
  })

  it.each(['reset-mid-body', 'truncated-body'] as const)(
    'flags a re-post after a 201 whose body broke (%s)',
    async (scenario) => {
      sandbox.clock.set('2030-01-01T12:00:00Z')
      sandbox.scenario.set(scenario)
      expect(await createReadingBodyWithBlindRetry(client())).toEqual([1, 201, expect.any(Number)])
      expect(rules(await sandbox.report())).toEqual(['duplicate-create-after-failure'])
      expect(rexes()).toHaveLength(2)
    },
  )

  it('does not count a 201 that arrived whole as malformed JSON (the client got every byte sent)', async () => {
    sandbox.clock.set('2030-01-01T12:00:00Z')
    sandbox.scenario.set('malformed-json')
    expect(await createReadingBodyWithBlindRetry(client())).toEqual([1, 201, expect.any(Number)])
    expect((await sandbox.report()).findings).toEqual([])
  })

  it('does not flag the same body sent again more than 60 seconds after the lost answer', async () => {
    sandbox.clock.set('2030-01-01T12:00:00Z')
    sandbox.scenario.set('commit-then-drop')
    const options = client()
    expect(
      await createWithBlindRetry({ ...options, sleep: (ms) => options.sleep(ms + 60_000) }, rex),
    ).toEqual(['failed', 201])
    expect((await sandbox.report()).findings).toEqual([])
  })
})
