import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setupSandbox, writePact } from 'petstore-sandbox/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Pact } from '../../src/index.js'
import { createSandboxServer } from '../../src/server/index.js'
import { listen, pactCore, stateHandler } from './support/pact-provider.js'

// Issue 37 items 3, 4, 5 and 13 together, as a user's suite has them: a vitest suite that
// resets the sandbox after each test (as the README teaches) writes each test's pact into one
// file (writePact, merged as Pact's libraries merge), with the operations of its own OpenAPI
// document, a list after a create, the sandbox's own faults; then the real Pact verifier
// (pact-core's Rust verifier) verifies that file against a fresh standalone server.

const EXTRAS = 'examples/openapi/petstore-extras.yaml'
const API = 'https://api.example.test/v1'
const KEY = { authorization: 'Bearer sandbox-free' }
const JSON_TYPE = { 'content-type': 'application/json' }
const NAMES = { consumer: 'web-app', provider: 'pet-store' }
const dir = mkdtempSync(join(tmpdir(), 'petstore-sandbox-pacts-'))
const skippedSeen: string[] = []

describe('a suite with afterEach(reset)', () => {
  const sandbox = setupSandbox({ openapi: EXTRAS })
  beforeAll(async () => {
    sandbox.listen()
    await sandbox.ready
  })
  afterEach(async () => {
    const { problems, skipped } = await writePact(sandbox, { ...NAMES, dir })
    expect(problems).toEqual([])
    skippedSeen.push(...skipped.map((s) => s.reason))
    await sandbox.reset()
  })
  afterAll(() => sandbox.close())

  it('lists pets', async () => {
    expect((await fetch(`${API}/pets?limit=2`, { headers: KEY })).status).toBe(200)
  })

  it('creates a pet, then lists one page (X-Total-Count: 26)', async () => {
    const created = await fetch(`${API}/pets`, {
      method: 'POST',
      headers: { ...KEY, ...JSON_TYPE },
      body: JSON.stringify({ name: 'Rex', categoryId: 3, status: 'pending' }),
    })
    expect(created.status).toBe(201)
    const list = await fetch(`${API}/pets?limit=1`, { headers: KEY })
    expect(list.headers.get('x-total-count')).toBe('26')
  })

  it('lists and creates categories (an operation of its own OpenAPI document)', async () => {
    expect((await fetch(`${API}/categories`, { headers: KEY })).status).toBe(200)
    const created = await fetch(`${API}/categories`, {
      method: 'POST',
      headers: { ...KEY, ...JSON_TYPE },
      body: JSON.stringify({ name: 'Reptiles' }),
    })
    expect(created.status).toBe(201)
  })

  it('shows the gateway page and survives a malformed answer', async () => {
    const gateway = await fetch(`${API}/pets?__scenario=proxy-error`, { headers: KEY })
    expect(gateway.status).toBe(502)
    expect(gateway.headers.get('content-type')).toContain('text/html')
    await gateway.text()
    const malformed = await fetch(`${API}/pets?__scenario=malformed-json`, { headers: KEY })
    await expect(malformed.json()).rejects.toThrow()
  })

  it('shows the outage page, and sends a body that is not JSON', async () => {
    expect((await fetch(`${API}/pets?__scenario=unavailable`, { headers: KEY })).status).toBe(503)
    const broken = await fetch(`${API}/pets`, {
      method: 'POST',
      headers: { ...KEY, ...JSON_TYPE },
      body: '{"name": "Rex",',
    })
    expect(broken.status).toBe(400)
  })
})

describe('the suite’s one pact file', () => {
  it('holds every test’s interactions, and passes the real verifier against a fresh provider', async () => {
    const file = join(dir, 'web-app-pet-store.json')
    const pact = JSON.parse(readFileSync(file, 'utf8')) as Pact
    expect(pact.interactions.map((i) => `${i.description} / ${i.providerStates[0]?.name}`)).toEqual(
      [
        'listPets: 200 / scenario default',
        'createPet: 201 / scenario default',
        'listPets: 200 (2) / scenario default',
        'listCategories: 200 / scenario default',
        'createCategory: 201 / scenario default',
        'listPets: 502 / scenario proxy-error',
        'listPets: 503 service_unavailable / scenario unavailable',
        'createPet: 400 malformed_json / scenario default',
      ],
    )
    // The malformed answer is no interaction (no verifier can compare it): skipped, and said why.
    expect(skippedSeen).toEqual([
      "the answer's body is not the JSON its Content-Type says (fault malformed-json): no verifier can compare it",
    ])

    const app = createSandboxServer({ openapi: EXTRAS })
    const origin = (await app.listen(0, '127.0.0.1')).url
    const states = stateHandler(origin)
    try {
      const result = await pactCore.verifyPacts({
        providerBaseUrl: origin,
        pactUrls: [file],
        providerStatesSetupUrl: await listen(states),
        logLevel: 'error',
      })
      expect(JSON.parse(result)).toMatchObject({ result: true, errors: [] })
    } finally {
      states.close()
      await app.close()
    }
  }, 120_000)
})
