import { setupSandbox } from 'petstore-sandbox/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { fetchWithBackoff } from './fetch-with-backoff.js'

// The built-in `outage` timeline: 60 s default, 120 s unavailable (503),
// 60 s rate-limited (429), then default for good, on the sandbox clock.
const sandbox = setupSandbox()
beforeAll(() => sandbox.listen())
afterEach(() => sandbox.reset())
afterAll(() => sandbox.close())

const PETS = 'https://api.example.test/v1/pets?limit=1'
const AS_PRO = { headers: { authorization: 'Bearer sandbox-pro' } }

/** Waits by moving the sandbox clock: the whole outage takes milliseconds. */
const sleep = async (ms: number) => sandbox.clock.advance(ms)

describe('a client with retries and back-off through the outage timeline', () => {
  it('rides out the outage on the virtual clock, and the report finds nothing wrong', async () => {
    sandbox.clock.set('2030-01-01T12:00:00Z')
    sandbox.scenario.set('outage')
    expect(sandbox.scenario.timeline()?.phase).toMatchObject({
      index: 0,
      scenario: 'default',
      leftMs: 60_000,
    })

    // The app polls every 20 s; each poll retries with back-off until it gets an answer.
    const polls: number[] = []
    for (let poll = 0; poll < 16; poll++) {
      const response = await fetchWithBackoff(PETS, AS_PRO, {
        attempts: 10,
        // Doubling from Retry-After's 5 s, uncapped over an outage this short.
        baseDelayMs: 5_000,
        maxDelayMs: 600_000,
        random: () => 0,
        sleep,
      })
      polls.push(response.status)
      await sleep(20_000)
    }
    // Every poll got its pets in the end: the retries carried it through the outage.
    expect(new Set(polls)).toEqual(new Set([200]))

    // The journal names each phase the client met, in order.
    const journal = sandbox.journal.list()
    const phases = [...new Set(journal.map((e) => `${e.phase?.index}:${e.scenario}:${e.status}`))]
    expect(phases).toEqual([
      '0:default:200',
      '1:unavailable:503',
      '2:rate-limited:429',
      '3:default:200',
    ])
    // The client waited as Retry-After asked and doubled its waits: the judge agrees.
    expect((await sandbox.report()).findings).toEqual([])
    expect(sandbox.scenario.timeline()?.phase).toMatchObject({ index: 3, leftMs: null })
  })

  it('shows in the report a client that retries at once through the outage', async () => {
    sandbox.clock.set('2030-01-01T12:00:00Z')
    sandbox.scenario.set('outage')
    await sleep(60_000) // straight into the 503s
    for (let i = 0; i < 6; i++) {
      await fetch(PETS, AS_PRO)
      await sleep(100) // a fixed, tiny wait: what the report calls out
    }
    const rules = (await sandbox.report()).findings.map((f) => f.rule)
    expect(rules).toContain('retry-before-retry-after')
    expect(sandbox.journal.list().every((e) => e.phase?.timeline === 'outage')).toBe(true)
  })
})
