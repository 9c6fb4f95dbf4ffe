import { beforeEach, describe, expect, it } from 'vitest'
import { createSandbox, type Sandbox } from '../../src/index.js'
import { callSandbox } from './call-sandbox.js'

const sandbox = createSandbox()
beforeEach(() => sandbox.reset())

const HEADER = 'x-sandbox-scenario'

describe('choosing a scenario', () => {
  it('uses the scenario of the __scenario flag for that request only', async () => {
    expect((await callSandbox(sandbox, { path: '/pets?__scenario=server-error' })).status).toBe(500)
    expect((await callSandbox(sandbox, { path: '/pets' })).status).toBe(200)
  })

  it('uses the scenario of the X-Sandbox-Scenario header for that request only', async () => {
    const forced = await callSandbox(sandbox, {
      path: '/pets',
      headers: { [HEADER]: 'unavailable' },
    })
    expect(forced.status).toBe(503)
    expect((await callSandbox(sandbox, { path: '/pets' })).status).toBe(200)
  })

  it('lets the flag win over the header', async () => {
    const response = await callSandbox(sandbox, {
      path: '/pets?__scenario=server-error',
      headers: { [HEADER]: 'unavailable' },
    })
    expect(response.status).toBe(500)
  })

  it('keeps a sticky scenario for every request until it is changed or reset', async () => {
    sandbox.scenario.set('unavailable')
    expect(sandbox.scenario.get()).toBe('unavailable')
    expect((await callSandbox(sandbox, { path: '/pets' })).status).toBe(503)
    expect((await callSandbox(sandbox, { path: '/pets/1' })).status).toBe(503)
    await sandbox.reset()
    expect(sandbox.scenario.get()).toBe('default')
    expect((await callSandbox(sandbox, { path: '/pets' })).status).toBe(200)
  })

  it('lets a per-request scenario win over the sticky one', async () => {
    sandbox.scenario.set('unavailable')
    const response = await callSandbox(sandbox, { path: '/pets?__scenario=default' })
    expect(response.status).toBe(200)
  })

  it('records the scenario that answered in the journal', async () => {
    await callSandbox(sandbox, { path: '/pets?__scenario=sunset' })
    expect(sandbox.journal.list().at(-1)?.scenario).toBe('sunset')
  })

  it.each([
    ['the flag', { path: '/pets?__scenario=nope' }],
    ['the header', { path: '/pets', headers: { [HEADER]: 'nope' } }],
  ])(
    'answers 400 unknown_scenario listing every valid name for an unknown name in %s',
    async (_, call) => {
      const response = await callSandbox(sandbox, call)
      expect(response.status).toBe(400)
      const body = response.json as { code: string; message: string }
      expect(body.code).toBe('unknown_scenario')
      for (const scenario of sandbox.scenario.list()) expect(body.message).toContain(scenario.name)
      expect(response.headers['X-RateLimit-Limit']).toBeDefined()
    },
  )

  it('answers 401 before unknown_scenario to a caller without a valid key', async () => {
    const response = await callSandbox(sandbox, { path: '/pets?__scenario=nope', key: 'wrong' })
    expect(response.status).toBe(401)
    expect(response.json).toMatchObject({ code: 'invalid_api_key' })
  })

  it('answers 400 invalid_parameter naming __scenario when the flag is repeated', async () => {
    const response = await callSandbox(sandbox, { path: '/pets?__scenario=slow&__scenario=empty' })
    expect(response.status).toBe(400)
    expect(response.json).toMatchObject({
      code: 'invalid_parameter',
      details: [{ field: '__scenario' }],
    })
  })

  it('refuses to make an unknown scenario sticky, naming the valid ones', () => {
    // A name outside the type on purpose: the run-time check is what is tested.
    expect(() => (sandbox as Sandbox<string>).scenario.set('nope')).toThrow(
      /Failed to set the scenario: Unknown scenario "nope"\. Valid scenarios: default.*flaky/,
    )
  })

  it('lists every built-in scenario with a description', () => {
    expect(sandbox.scenario.list().map((s) => s.name)).toEqual([
      'default',
      'empty',
      'paginated',
      'rate-limited',
      'banned',
      'unauthorized',
      'server-error',
      'unavailable',
      'slow',
      'timeout',
      'network-error',
      'sunset',
      'flaky',
      'reset-mid-body',
      'truncated-body',
      'stall-after-headers',
      'slow-body',
      'malformed-json',
      'proxy-error',
      'empty-response',
      'commit-then-drop',
      'outage',
    ])
    for (const scenario of sandbox.scenario.list()) expect(scenario.description).not.toBe('')
  })
})

describe('sandbox query parameters', () => {
  it('never treats __scenario or __delay as an invalid API parameter', async () => {
    const response = await callSandbox(sandbox, {
      path: '/pets?limit=5&__scenario=default&__delay=9',
    })
    expect(response.status).toBe(200)
  })

  it('keeps __scenario and __delay out of the next Link', async () => {
    const response = await callSandbox(sandbox, {
      path: '/pets?limit=10&__scenario=paginated&__delay=3',
    })
    expect(response.headers.Link).toMatch(
      /^<https:\/\/api\.example\.test\/v1\/pets\?limit=10&cursor=[^>]+>; rel="next"$/,
    )
    expect(response.headers.Link).not.toMatch(/__/)
  })

  it.each(['-1', '30001', '1.5', 'abc', '', '01', ' 5'])(
    'answers 400 invalid_parameter naming __delay for __delay=%j in the slow scenario',
    async (value) => {
      const response = await callSandbox(sandbox, {
        path: `/pets?__scenario=slow&__delay=${encodeURIComponent(value)}`,
      })
      expect(response.status).toBe(400)
      expect(response.json).toMatchObject({
        code: 'invalid_parameter',
        details: [{ field: '__delay' }],
      })
      expect(response.delayMs).toBeUndefined()
    },
  )

  it.each([
    ['0', undefined],
    ['30000', 30_000],
  ])('accepts __delay=%s at the bounds', async (value, delayMs) => {
    const response = await callSandbox(sandbox, { path: `/pets?__scenario=slow&__delay=${value}` })
    expect(response.status).toBe(200)
    expect(response.delayMs).toBe(delayMs)
  })

  it('answers 400 invalid_parameter for a repeated __delay in the slow scenario', async () => {
    const response = await callSandbox(sandbox, {
      path: '/pets?__scenario=slow&__delay=1&__delay=2',
    })
    expect(response.json).toMatchObject({
      code: 'invalid_parameter',
      details: [{ field: '__delay' }],
    })
  })

  it('does not create the pet when __delay is refused', async () => {
    await callSandbox(sandbox, {
      method: 'POST',
      path: '/pets?__scenario=slow&__delay=x',
      body: { name: 'Rex', categoryId: 1 },
    })
    expect(sandbox.db.pets.count).toBe(25)
  })
})
