import { describe, expect, it } from 'vitest'
import { createFlakyScenario, createSandbox, type Sandbox } from '../../src/index.js'
import { callSandbox } from './call-sandbox.js'

/** The outcome of n flaky listPets requests: 'ok', '503' or 'net'. */
const pattern = async (sandbox: Sandbox, n: number, scenario = 'flaky'): Promise<string[]> => {
  const outcomes: string[] = []
  for (let i = 0; i < n; i++) {
    const response = await callSandbox(sandbox, { path: `/pets?__scenario=${scenario}` })
    if (response.fault === 'network-error') outcomes.push('net')
    else if (response.status === 503) outcomes.push('503')
    else outcomes.push(String(response.status))
  }
  return outcomes
}

const share = (outcomes: string[]): number =>
  outcomes.filter((o) => o !== '200').length / outcomes.length

describe('the flaky scenario', () => {
  it('fails the same requests in two sandboxes with the same seed', async () => {
    const first = await pattern(createSandbox({ flaky: { seed: 7 } }), 200)
    const second = await pattern(createSandbox({ flaky: { seed: 7 } }), 200)
    expect(second).toEqual(first)
  })

  it('fails other requests with another seed', async () => {
    const first = await pattern(createSandbox({ flaky: { seed: 7 } }), 200)
    const second = await pattern(createSandbox({ flaky: { seed: 8 } }), 200)
    expect(second).not.toEqual(first)
  })

  it('takes its seed from the sandbox seed when none is given', async () => {
    const first = await pattern(createSandbox({ seed: 3 }), 100)
    const second = await pattern(createSandbox({ seed: 3 }), 100)
    const third = await pattern(createSandbox({ seed: 4 }), 100)
    expect(second).toEqual(first)
    expect(third).not.toEqual(first)
  })

  it('repeats its pattern after reset', async () => {
    const sandbox = createSandbox()
    const first = await pattern(sandbox, 100)
    await sandbox.reset()
    expect(await pattern(sandbox, 100)).toEqual(first)
  })

  it('fails about 30% of 2000 requests by default, as 503s and network errors alike', async () => {
    const outcomes = await pattern(createSandbox({ flaky: { seed: 11 } }), 2_000)
    expect(share(outcomes)).toBeGreaterThan(0.27)
    expect(share(outcomes)).toBeLessThan(0.33)
    const net = outcomes.filter((o) => o === 'net').length
    const unavailable = outcomes.filter((o) => o === '503').length
    // Each failure is a network error or a 503 with equal odds: within 4 standard deviations.
    expect(Math.abs(net - unavailable)).toBeLessThan(4 * Math.sqrt(net + unavailable))
    expect(new Set(outcomes)).toEqual(new Set(['200', '503', 'net']))
  })

  it('fails the share of requests set by its rate', async () => {
    const outcomes = await pattern(createSandbox({ flaky: { rate: 0.8, seed: 1 } }), 1_000)
    expect(share(outcomes)).toBeGreaterThan(0.76)
    expect(share(outcomes)).toBeLessThan(0.84)
  })

  it('never fails with rate 0 and always fails with rate 1', async () => {
    expect(share(await pattern(createSandbox({ flaky: { rate: 0 } }), 200))).toBe(0)
    expect(share(await pattern(createSandbox({ flaky: { rate: 1 } }), 200))).toBe(1)
  })

  it('answers a failed request with 503 service_unavailable and Retry-After: 1, without running it', async () => {
    const sandbox = createSandbox({ flaky: { rate: 1, seed: 5 } })
    const answered = []
    let dropped = 0
    for (let i = 0; i < 20; i++) {
      const response = await callSandbox(sandbox, {
        method: 'POST',
        path: '/pets?__scenario=flaky',
        body: { name: 'Rex', categoryId: 1 },
      })
      if (response.fault === 'network-error') dropped++
      else answered.push(response)
    }
    // With rate 1 every request fails, about half of them as a 503 answer: both kinds occurred.
    expect(dropped).toBeGreaterThan(0)
    expect(answered.length).toBeGreaterThan(0)
    for (const response of answered) {
      expect(response.status).toBe(503)
      expect(response.json).toMatchObject({ code: 'service_unavailable' })
      expect(response.headers['Retry-After']).toBe('1')
    }
    expect(sandbox.db.pets.count).toBe(25)
  })

  it('answers a request that does not fail as the default does, on the default store', async () => {
    const sandbox = createSandbox({ flaky: { rate: 0 } })
    const response = await callSandbox(sandbox, {
      method: 'POST',
      path: '/pets?__scenario=flaky',
      body: { name: 'Rex', categoryId: 1 },
    })
    expect(response.status).toBe(201)
    expect(sandbox.db.pets.count).toBe(26)
  })

  it('runs beside a flaky scenario of your own with its own rate and stream', async () => {
    const sandbox = createSandbox({
      scenarios: [createFlakyScenario({ name: 'very-flaky', rate: 0.9, seed: 2 })],
    })
    expect(share(await pattern(sandbox, 500, 'very-flaky'))).toBeGreaterThan(0.85)
    expect(share(await pattern(sandbox, 500, 'flaky'))).toBeLessThan(0.35)
  })

  it.each([-0.1, 1.5, Number.NaN])('refuses rate %s with a clear message', (rate) => {
    expect(() => createSandbox({ flaky: { rate } })).toThrow(
      /Failed to create the flaky scenario "flaky": rate must be a number from 0 to 1/,
    )
  })

  it('refuses a seed that is not an integer', () => {
    expect(() => createSandbox({ flaky: { seed: 1.5 } })).toThrow(/seed must be an integer/)
  })
})
