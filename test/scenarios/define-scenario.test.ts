import { describe, expect, it } from 'vitest'
import {
  ApiError,
  BUILT_IN_SCENARIOS,
  createSandbox,
  defineScenario,
  jsonResponse,
} from '../../src/index.js'
import { createSeededRandom } from '../../src/scenarios/create-seeded-random.js'
import { callSandbox, ORIGIN } from './call-sandbox.js'

const maintenance = defineScenario({
  name: 'maintenance',
  description: 'Every request answers 503.',
  respond: () => new ApiError('service_unavailable', 'Down for maintenance.'),
})

describe('defineScenario', () => {
  it.each(['', 'Upper', '-lead', 'with space', 'a'.repeat(65)])('refuses the name %j', (name) => {
    expect(() => defineScenario({ name, description: 'x' })).toThrow(
      /^Failed to define scenario .*: a name is 1-64 characters/,
    )
  })

  it('refuses an empty description', () => {
    expect(() => defineScenario({ name: 'x', description: '  ' })).toThrow(/give it a description/)
  })

  it('gives every built-in scenario a distinct valid name and a description', () => {
    const names = BUILT_IN_SCENARIOS.map((s) => s.name)
    expect(new Set(names).size).toBe(names.length)
    expect(names).toHaveLength(22)
    for (const scenario of BUILT_IN_SCENARIOS) {
      // defineScenario's own checks, run again on the values the registry holds.
      expect(defineScenario({ ...scenario })).toEqual(scenario)
      expect(scenario.name).toMatch(/^[a-z0-9][a-z0-9-]{0,63}$/)
      expect(scenario.description.trim().length, scenario.name).toBeGreaterThan(20)
    }
  })
})

describe('scenarios of your own', () => {
  it('answers with a scenario passed to createSandbox', async () => {
    const sandbox = createSandbox({ scenarios: [maintenance] })
    const response = await callSandbox(sandbox, { path: '/pets?__scenario=maintenance' })
    expect(response.status).toBe(503)
    expect(response.json).toMatchObject({ code: 'service_unavailable' })
  })

  it('answers with a scenario registered at run time, also as the sticky one', async () => {
    // Registered after creation: its name is not in the sandbox's type, hence <string>.
    const sandbox = createSandbox<string>()
    expect((await callSandbox(sandbox, { path: '/pets?__scenario=maintenance' })).status).toBe(400)
    sandbox.scenario.register(maintenance)
    sandbox.scenario.set('maintenance')
    expect((await callSandbox(sandbox, { path: '/pets' })).status).toBe(503)
  })

  it('refuses a second scenario with a taken name', () => {
    const sandbox = createSandbox()
    expect(() =>
      sandbox.scenario.register(defineScenario({ name: 'slow', description: 'Mine.' })),
    ).toThrow(/Failed to register scenario "slow": that name is taken/)
  })

  it('can answer a response of its own, with the rate-limit headers added', async () => {
    const sandbox = createSandbox({
      scenarios: [
        defineScenario({
          name: 'one-pet',
          description: 'listPets always answers one pet.',
          respond: ({ operationId }) =>
            operationId === 'listPets'
              ? jsonResponse(200, [{ id: 9, name: 'Solo', categoryId: 1, status: 'sold' }])
              : undefined,
        }),
      ],
    })
    const list = await callSandbox(sandbox, { path: '/pets?__scenario=one-pet' })
    expect(list.json).toEqual([{ id: 9, name: 'Solo', categoryId: 1, status: 'sold' }])
    expect(list.headers['X-RateLimit-Remaining']).toBe('4999')
    const one = await callSandbox(sandbox, { path: '/pets/1?__scenario=one-pet' })
    expect(one.status).toBe(200)
  })

  it('answers 500 internal_error when a hook returns a negative delay', async () => {
    const errors: unknown[] = []
    const sandbox = createSandbox({
      onError: (error) => errors.push(error),
      scenarios: [defineScenario({ name: 'bad-delay', description: 'Bug.', delayMs: () => -1 })],
    })
    const response = await callSandbox(sandbox, { path: '/pets?__scenario=bad-delay' })
    expect(response.status).toBe(500)
    expect(String(errors[0])).toMatch(/delayMs returned -1/)
  })

  it('can decide its fault per request', async () => {
    const sandbox = createSandbox({
      scenarios: [
        defineScenario({
          name: 'drop-creates',
          description: 'createPet loses its connection.',
          fault: ({ operationId }) => (operationId === 'createPet' ? 'network-error' : undefined),
        }),
      ],
    })
    const created = await callSandbox(sandbox, {
      method: 'POST',
      path: '/pets?__scenario=drop-creates',
      body: { name: 'Rex', categoryId: 1 },
    })
    expect(created.fault).toBe('network-error')
    expect(sandbox.db.pets.count).toBe(25)
    const list = await callSandbox(sandbox, { path: '/pets?__scenario=drop-creates' })
    expect(list.fault).toBeUndefined()
  })
})

describe('createSeededRandom', () => {
  it('gives the same numbers in [0, 1) for the same seed and name', () => {
    const a = createSeededRandom(42, 'x')
    const b = createSeededRandom(42, 'x')
    const first = Array.from({ length: 50 }, a)
    expect(Array.from({ length: 50 }, b)).toEqual(first)
    for (const n of first) expect(n >= 0 && n < 1).toBe(true)
  })

  it('gives other numbers for another name or seed', () => {
    const first = createSeededRandom(42, 'x')()
    expect(createSeededRandom(42, 'y')()).not.toBe(first)
    expect(createSeededRandom(43, 'x')()).not.toBe(first)
  })

  it('gives hooks a URL of their own: changing it changes neither the answer nor the journal', async () => {
    const meddling = defineScenario({
      name: 'meddling',
      description: 'Changes the query of the URL its hook is given.',
      delayMs: (ctx) => {
        ctx.url.searchParams.set('limit', '1')
        return 0
      },
    })
    const sandbox = createSandbox({ scenarios: [meddling] })
    // A URL the fast path takes, and one a URL parser rewrites (the upper-case host).
    for (const origin of [ORIGIN, 'https://API.example.test']) {
      const response = await sandbox.handle({
        method: 'GET',
        url: `${origin}/v1/pets?limit=3&__scenario=meddling`,
        headers: { authorization: 'Bearer sandbox-enterprise' },
        body: null,
      })
      expect(JSON.parse(response?.body ?? 'null'), origin).toHaveLength(3)
    }
    const journal = sandbox.journal.list()
    expect(journal.map((entry) => new URL(entry.url).searchParams.get('limit'))).toEqual(['3', '3'])
  })
})
