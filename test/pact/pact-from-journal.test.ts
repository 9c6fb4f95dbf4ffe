import { setupSandbox } from 'petstore-sandbox/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { PactInteraction } from '../../src/index.js'

// Contract §21: the journal of a session as a Pact v4 file, in the test runner.
const sandbox = setupSandbox()
beforeAll(() => sandbox.listen())
afterEach(() => sandbox.reset())
afterAll(() => sandbox.close())

const API = 'https://api.example.test/v1'
const KEY = { authorization: 'Bearer sandbox-free' }
const names = { consumer: 'web-app', provider: 'pet-store' }
const describeAll = (interactions: PactInteraction[]) => interactions.map((i) => i.description)

describe('sandbox.pact()', () => {
  it('writes one Synchronous/HTTP interaction per distinct exchange, described by operation and outcome', async () => {
    await fetch(`${API}/pets?limit=2`, { headers: KEY })
    await fetch(`${API}/pets?limit=2`, { headers: KEY })
    await fetch(`${API}/pets/1`, { headers: KEY })
    await fetch(`${API}/pets/999999`, { headers: KEY })
    await fetch(`${API}/pets`, {
      method: 'POST',
      headers: { ...KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
    })
    const { pact, problems, skipped } = await sandbox.pact(names)
    expect(problems).toEqual([])
    expect(skipped).toEqual([])
    expect(pact.consumer).toEqual({ name: 'web-app' })
    expect(pact.provider).toEqual({ name: 'pet-store' })
    expect(pact.metadata.pactSpecification.version).toBe('4.0')
    expect(pact.metadata['petstore-sandbox'].version).toMatch(/^\d+\.\d+\.\d+/)
    expect(describeAll(pact.interactions)).toEqual([
      'listPets: 200',
      'getPet: 200',
      'getPet: 404 pet_not_found',
      'createPet: 201',
    ])
    const [list, , , create] = pact.interactions as [
      PactInteraction,
      PactInteraction,
      PactInteraction,
      PactInteraction,
    ]
    expect(list.type).toBe('Synchronous/HTTP')
    expect(list.request).toMatchObject({ method: 'GET', path: '/v1/pets', query: { limit: ['2'] } })
    expect(list.providerStates).toEqual([
      { name: 'scenario default', params: { scenario: 'default', plan: 'free' } },
    ])
    expect(list.response.status).toBe(200)
    expect(list.response.body?.contentType).toBe('application/json')
    expect(list.response.body?.content).toHaveLength(2)
    expect(create.request.body).toEqual({
      content: { name: 'Rex', categoryId: 1 },
      contentType: 'application/json',
      encoded: false,
    })
  })

  it('keeps Authorization as a placeholder the verifier fills, and no header bound to time, quota or a secret', async () => {
    await fetch(`${API}/pets?limit=1&api_key=hunter2`, {
      headers: { ...KEY, cookie: 'sid=secret', 'x-session-token': 'abc' },
    })
    const text = JSON.stringify(await sandbox.pact(names))
    expect(text).not.toContain('sandbox-free')
    expect(text).not.toContain('hunter2')
    expect(text).not.toContain('secret')
    expect(text).not.toMatch(/x-ratelimit|retry-after|"date"|api_key|cookie|x-session-token/i)
    const [list] = (await sandbox.pact(names)).pact.interactions
    expect(list?.request.headers?.authorization).toEqual(['Bearer sandbox-api-key'])
    expect(list?.request.generators?.header.authorization).toEqual({
      type: 'ProviderState',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Pact's expression, not a template.
      expression: 'Bearer ${apiKey}',
      dataType: 'STRING',
    })
  })

  it('names the scenario as the provider state and leaves out the switches that chose it', async () => {
    await fetch(`${API}/pets?__scenario=unavailable`, { headers: KEY })
    sandbox.scenario.set('rate-limited')
    await fetch(`${API}/pets`, { headers: { ...KEY, 'x-sandbox-scenario': 'rate-limited' } })
    const { pact } = await sandbox.pact(names)
    expect(pact.interactions.map((i) => [i.description, i.providerStates[0]?.name])).toEqual([
      ['listPets: 503 service_unavailable', 'scenario unavailable'],
      ['listPets: 429 rate_limit_exceeded', 'scenario rate-limited'],
    ])
    expect(pact.interactions[0]?.request.query).toBeUndefined()
    expect(pact.interactions[1]?.request.headers).not.toHaveProperty('x-sandbox-scenario')
  })

  it('keeps a refused credential refused: its own scheme and a placeholder, no generator', async () => {
    await fetch(`${API}/pets`, { headers: { authorization: 'Bearer not-a-key' } })
    await fetch(`${API}/pets`)
    const { pact } = await sandbox.pact(names)
    expect(describeAll(pact.interactions)).toEqual([
      'listPets: 401 invalid_api_key',
      'listPets: 401 missing_api_key',
    ])
    expect(pact.interactions[0]?.request.headers?.authorization).toEqual([
      'Bearer refused-credential',
    ])
    expect(pact.interactions[0]?.request.generators).toBeUndefined()
    expect(pact.interactions[1]?.request.headers?.authorization).toBeUndefined()
    expect(pact.interactions[1]?.providerStates[0]?.params).toEqual({ scenario: 'default' })
  })

  it('leaves faults without an HTTP answer out, and says so', async () => {
    await fetch(`${API}/pets?__scenario=network-error`, { headers: KEY }).catch(() => undefined)
    await fetch(`${API}/pets`, { headers: KEY })
    const { pact, skipped } = await sandbox.pact(names)
    expect(describeAll(pact.interactions)).toEqual(['listPets: 200'])
    expect(skipped).toEqual([
      { seq: expect.any(Number), reason: 'no HTTP answer (fault network-error)' },
    ])
  })

  it('gives an empty pact for an empty journal', async () => {
    const { pact, problems, skipped } = await sandbox.pact(names)
    expect([pact.interactions, problems, skipped]).toEqual([[], [], []])
  })

  it.each([
    [{ consumer: '', provider: 'p' }, /consumer must not be empty/],
    [{ consumer: 'c' }, /provider must be a string/],
    [{ consumer: 'c', provider: 'x'.repeat(201) }, /provider must have at most 200/],
    [{ consumer: 'a\nb', provider: 'p' }, /consumer must not contain control characters/],
    [{ consumer: 7, provider: 'p' }, /consumer must be a string/],
  ])('refuses bad names with a TypeError naming the option: %j', async (options, message) => {
    await expect(sandbox.pact(options as never)).rejects.toThrow(message)
  })

  it('accepts Unicode names as they are', async () => {
    const { pact } = await sandbox.pact({ consumer: 'Tierheim-App 🐾', provider: 'Ланч' })
    expect(pact.consumer.name).toBe('Tierheim-App 🐾')
  })

  it('reads the journal when asked: a cleared journal gives an empty pact (no copy kept)', async () => {
    await fetch(`${API}/pets`, { headers: KEY })
    expect((await sandbox.pact(names)).pact.interactions).toHaveLength(1)
    sandbox.journal.clear()
    expect((await sandbox.pact(names)).pact.interactions).toHaveLength(0)
  })
})
