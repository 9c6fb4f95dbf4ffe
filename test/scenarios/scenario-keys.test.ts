import { beforeEach, describe, expect, it } from 'vitest'
import { ApiError, createSandbox, defineScenario } from '../../src/index.js'
import { callSandbox } from './call-sandbox.js'

const maintenance = defineScenario({
  name: 'maintenance',
  description: 'Every request answers 503 for maintenance.',
  respond: () => new ApiError('service_unavailable', 'Down for maintenance.'),
})

const sandbox = createSandbox({
  scenarios: [maintenance],
  keys: { 'app-key': { plan: 'pro', scenario: 'server-error' }, 'plain-key': 'pro' },
})
beforeEach(() => sandbox.reset({ sessions: 'all' }))

describe('scenario keys', () => {
  it('answers 503 to a client that sends nothing but sandbox-scenario-unavailable', async () => {
    const response = await callSandbox(sandbox, {
      path: '/pets',
      key: 'sandbox-scenario-unavailable',
    })
    expect(response.status).toBe(503)
    expect(response.headers['Retry-After']).toBe('5')
  })

  it('selects every built-in and registered scenario by its key, on the free plan', async () => {
    for (const { name } of sandbox.scenario.list()) {
      const response = await callSandbox(sandbox, {
        path: '/pets',
        key: `sandbox-scenario-${name}`,
      })
      expect(response.headers['X-RateLimit-Limit'], name).toBe('60')
      const [entry] = sandbox.journal.list().slice(-1)
      // A timeline answers with its phase's scenario (outage starts with default).
      expect(entry?.scenario, name).toBe(name === 'outage' ? 'default' : name)
    }
    expect(
      (await callSandbox(sandbox, { path: '/pets', key: 'sandbox-scenario-maintenance' })).status,
    ).toBe(503)
  })

  it('gives a scenario registered after start its key too', async () => {
    const own = createSandbox()
    expect((await callSandbox(own, { path: '/pets', key: 'sandbox-scenario-later' })).status).toBe(
      401,
    )
    own.scenario.register(
      defineScenario({
        name: 'later',
        description: 'Answers 500.',
        respond: () => new ApiError('internal_error', 'Later.'),
      }),
    )
    expect((await callSandbox(own, { path: '/pets', key: 'sandbox-scenario-later' })).status).toBe(
      500,
    )
  })

  it('answers 401 invalid_api_key for a scenario key of no scenario, or in another case', async () => {
    for (const key of ['sandbox-scenario-nope', 'sandbox-scenario-', 'sandbox-scenario-SLOW']) {
      const response = await callSandbox(sandbox, { path: '/pets', key })
      expect(response.status, key).toBe(401)
      expect((response.json as { code: string }).code).toBe('invalid_api_key')
    }
  })

  it('lets the flag and the header win over the key, and the key win over the sticky scenario', async () => {
    sandbox.scenario.set('empty')
    const key = 'sandbox-scenario-unavailable'
    expect((await callSandbox(sandbox, { path: '/pets?__scenario=default', key })).status).toBe(200)
    expect(
      (
        await callSandbox(sandbox, {
          path: '/pets',
          key,
          headers: { 'x-sandbox-scenario': 'server-error' },
        })
      ).status,
    ).toBe(500)
    expect((await callSandbox(sandbox, { path: '/pets', key })).status).toBe(503)
    const plain = await callSandbox(sandbox, { path: '/pets', key: 'sandbox-free' })
    expect((plain.json as unknown[]).length).toBe(0)
  })

  it('revokes a scenario key in its session only, until the reset', async () => {
    const key = 'sandbox-scenario-slow'
    expect(sandbox.keys.revoke(key)).toBe(true)
    expect(sandbox.keys.revoke(key)).toBe(false)
    const refused = await callSandbox(sandbox, { path: '/pets', key })
    expect((refused.json as { code: string }).code).toBe('invalid_api_key')
    expect(
      (await callSandbox(sandbox, { path: '/pets?__session=w1&__scenario=default', key })).status,
    ).toBe(200)
    await sandbox.reset()
    expect((await callSandbox(sandbox, { path: '/pets?__scenario=default', key })).status).toBe(200)
  })

  it('counts each scenario key against its own free quota', async () => {
    await callSandbox(sandbox, { path: '/pets', key: 'sandbox-scenario-empty' })
    const second = await callSandbox(sandbox, { path: '/pets', key: 'sandbox-scenario-empty' })
    expect(second.headers['X-RateLimit-Remaining']).toBe('58')
    const other = await callSandbox(sandbox, { path: '/pets', key: 'sandbox-scenario-paginated' })
    expect(other.headers['X-RateLimit-Remaining']).toBe('59')
  })

  it('leaves scenario keys out of the keys listing', () => {
    expect(sandbox.keys.list().some((k) => k.key.startsWith('sandbox-scenario-'))).toBe(false)
  })

  it('never lets a run-time key take a scenario key text', () => {
    expect(() => sandbox.keys.create({ plan: 'pro', key: 'sandbox-scenario-slow' })).toThrow(
      /exists already/,
    )
  })
})

describe('keys that carry a scenario', () => {
  it('answers a key of the options with its scenario, on its plan', async () => {
    const response = await callSandbox(sandbox, { path: '/pets', key: 'app-key' })
    expect(response.status).toBe(500)
    expect(response.headers['X-RateLimit-Limit']).toBe('300')
    expect((await callSandbox(sandbox, { path: '/pets', key: 'plain-key' })).status).toBe(200)
  })

  it('answers a run-time key with its scenario, registered ones too', async () => {
    const { key } = sandbox.keys.create({ plan: 'business', scenario: 'maintenance' })
    expect(sandbox.keys.list().find((k) => k.key === key)?.scenario).toBe('maintenance')
    expect((await callSandbox(sandbox, { path: '/pets', key })).status).toBe(503)
  })

  it('refuses a key whose scenario is unknown, in the options and at run time', () => {
    // @ts-expect-error an unknown name fails type checking too (decision 0057)
    expect(() => createSandbox({ keys: { k: { plan: 'pro', scenario: 'nope' } } })).toThrow(
      /scenario "nope" is unknown/,
    )
    expect(() => sandbox.keys.create({ plan: 'pro', scenario: 'nope' })).toThrow(
      /scenario "nope" is unknown/,
    )
  })

  it("lists the names it knows when a key's scenario is unknown (issue 37 item 12), cutting a long one", () => {
    expect(() =>
      // @ts-expect-error a typo of "slow"
      createSandbox({ scenarios: [maintenance], keys: { k: { plan: 'free', scenario: 'slwo' } } }),
    ).toThrow(
      /^Failed to configure key "k": scenario "slwo" is unknown\. Use one of default, empty, paginated, .*, slow, .*, outage, maintenance\.$/,
    )
    expect(() => sandbox.keys.create({ plan: 'pro', scenario: 'x'.repeat(100_000) })).toThrow(
      /^Failed to configure a new key: scenario "x{80}…" \(100,000 characters\) is unknown\. Use one of default, .*, maintenance\.$/,
    )
  })

  it('refuses an option key that is a scenario key (issue 37 item 18): it would shadow it', () => {
    for (const key of ['sandbox-scenario-unavailable', 'sandbox-scenario-not-yet-registered'])
      expect(() => createSandbox({ keys: { [key]: 'enterprise' } })).toThrow(
        `Failed to configure key "${key}": keys starting with "sandbox-scenario-" are the scenario keys`,
      )
  })
})
