import { setupSandbox } from 'petstore-sandbox/node'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { fetchWithBackoff } from './fetch-with-backoff.js'

// A key with a tiny quota, so a few requests reach the limit.
const sandbox = setupSandbox({
  keys: { 'backoff-demo': { plan: 'enterprise', perMinute: 2, perDay: 1_000 } },
})
beforeAll(() => sandbox.listen())
afterEach(async () => {
  vi.useRealTimers()
  await sandbox.reset()
})
afterAll(() => sandbox.close())

const PETS = 'https://api.example.test/v1/pets?limit=1'
const AS_DEMO = { headers: { authorization: 'Bearer backoff-demo' } }
const AS_PRO = { headers: { authorization: 'Bearer sandbox-pro' } }

/** Waits by moving the sandbox clock: the test takes milliseconds, not minutes. */
const sleepOnSandboxClock = (waits: number[]) => async (ms: number) => {
  waits.push(ms)
  sandbox.clock.advance(ms)
}

describe('fetchWithBackoff against the sandbox clock', () => {
  it('waits out a 429 for as long as Retry-After says, then succeeds', async () => {
    sandbox.clock.set('2030-01-01T12:00:45Z')
    await fetch(PETS, AS_DEMO)
    await fetch(PETS, AS_DEMO) // the minute's quota is spent
    const waits: number[] = []
    const response = await fetchWithBackoff(PETS, AS_DEMO, {
      random: () => 0,
      sleep: sleepOnSandboxClock(waits),
    })
    expect(response.status).toBe(200)
    // Retry-After said 15 s (until 12:01:00), more than the first 1 s back-off.
    expect(waits).toEqual([15_000])
  })

  it('doubles its wait while the service stays unavailable, never below Retry-After', async () => {
    sandbox.clock.set('2030-01-01T12:00:00Z')
    sandbox.scenario.set('unavailable') // every answer: 503 with Retry-After: 5
    const waits: number[] = []
    const response = await fetchWithBackoff(PETS, AS_PRO, {
      attempts: 6,
      random: () => 0,
      sleep: sleepOnSandboxClock(waits),
    })
    expect(response.status).toBe(503)
    expect(waits).toEqual([5_000, 5_000, 5_000, 8_000, 16_000])
  })

  it('keeps its key out of a ban, where retrying at once gets it banned', async () => {
    sandbox.clock.set('2030-01-01T12:00:00Z')
    const impatient = sandbox.keys.create({ plan: 'enterprise', perMinute: 2 }).key
    const asImpatient = { headers: { authorization: `Bearer ${impatient}` } }
    const codes: string[] = []
    for (let i = 0; i < 25; i++) {
      const response = await fetch(PETS, asImpatient)
      if (response.status === 429) codes.push(((await response.json()) as { code: string }).code)
    }
    expect(codes).toContain('api_key_banned')

    const statuses: number[] = []
    for (let i = 0; i < 25; i++) {
      const response = await fetchWithBackoff(PETS, AS_DEMO, {
        random: () => 0,
        sleep: sleepOnSandboxClock([]),
      })
      statuses.push(response.status)
    }
    expect(new Set(statuses)).toEqual(new Set([200]))
  })
})

describe('fetchWithBackoff with vitest fake timers', () => {
  it('retries on its own timer while fake time moves the sandbox clock along', async () => {
    // Fake only Date and setTimeout; the sandbox clock is not set, so it follows Date.now.
    vi.useFakeTimers({ now: new Date('2030-01-01T12:00:50Z'), toFake: ['Date', 'setTimeout'] })
    await fetch(PETS, AS_DEMO)
    await fetch(PETS, AS_DEMO)
    const retries: number[] = []
    const pending = fetchWithBackoff(PETS, AS_DEMO, {
      random: () => 0,
      onRetry: ({ delayMs }) => retries.push(delayMs),
    })
    // Let the first request finish (real I/O turns; setImmediate is not faked).
    for (let turn = 0; turn < 1_000 && retries.length === 0; turn++) {
      await new Promise((resolve) => setImmediate(resolve))
    }
    expect(retries).toEqual([10_000])
    await vi.advanceTimersByTimeAsync(10_000)
    expect((await pending).status).toBe(200)
    expect(sandbox.clock.now()).toBe(Date.parse('2030-01-01T12:01:00Z'))
  })
})
