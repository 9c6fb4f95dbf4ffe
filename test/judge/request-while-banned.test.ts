import { setupSandbox } from 'petstore-sandbox/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type ClientOptions, createCarefulClient, pollEvery } from './pet-clients.js'

// request-while-banned needs a ban without early retries before it: a key
// banned by its first refused request (banAfter 0), for a minute. One MSW
// server per file: this sandbox has its own rate-limit settings.
const sandbox = setupSandbox({
  keys: { 'one-a-minute': { plan: 'enterprise', perMinute: 1, perDay: 1_000 } },
  rateLimit: { banAfter: 0, banMinutes: 1 },
})
beforeAll(() => sandbox.listen())
afterEach(() => sandbox.reset())
afterAll(() => sandbox.close())

const client: ClientOptions = {
  api: 'https://api.example.test/v1',
  key: 'one-a-minute',
  sleep: async (ms) => sandbox.clock.advance(ms),
}

describe('request-while-banned', () => {
  it('finds nothing when the client waits out the ban its 429 announced', async () => {
    sandbox.clock.set('2030-01-01T12:00:00Z')
    expect(await createCarefulClient(client).poll(3, 10_000)).toEqual([200, 429, 200])
    expect((await sandbox.requests.find({ status: 429 })).map((e) => e.code)).toEqual([
      'api_key_banned',
    ])
    expect((await sandbox.report()).findings).toEqual([])
  })

  it('finds the polls a client sends during its ban, and nothing else', async () => {
    sandbox.clock.set('2030-01-01T12:00:00Z')
    expect(await pollEvery(client, 10_000, 4)).toEqual([200, 429, 429, 429])
    const journal = sandbox.journal.list()
    expect(journal.map((e) => e.code)).toEqual([null, ...Array(3).fill('api_key_banned')])
    const report = await sandbox.report()
    expect(report.findings.map((f) => f.rule)).toEqual(['request-while-banned'])
    expect(report.findings[0]).toMatchObject({
      level: 'error',
      seqs: journal.slice(1).map((e) => e.seq),
    })
    expect(report.findings[0]?.message).toMatch(
      /^The key one-…#[0-9a-f]{8} sent 2 requests while it was banned \(the 429 api_key_banned at #\d+ said to wait 60 s\)/,
    )
  })
})
