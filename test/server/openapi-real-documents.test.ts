import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandboxServer, type SandboxServer } from '../../src/server/index.js'

// Real documents no one here wrote (test/openapi/fixtures/real, issue 35): keys, quotas,
// scenarios, faults, the journal, the report, Pact and the reference page's document keep
// working for every operation of each.
const DOCUMENTS = [
  'test/openapi/fixtures/real/github-issues-gists.json',
  'test/openapi/fixtures/real/airflow.json',
  'test/openapi/fixtures/real/microcks.yaml',
  'test/openapi/fixtures/real/xkcd.yaml',
]
const KEY = { authorization: 'Bearer real-documents' }

interface Added {
  method: string
  path: string
  operation: string
}

describe.each(DOCUMENTS)('a real document, %s', (document) => {
  let app: SandboxServer<string>
  let base = ''
  let added: Added[] = []
  const url = (op: Added, query = '') => `${base}/v1${op.path.replace(/\{[^}]+\}/g, '1')}${query}`
  const send = (op: Added, query = '', headers: Record<string, string> = KEY) =>
    fetch(url(op, query), {
      method: op.method,
      headers: {
        ...headers,
        ...(op.method === 'GET' ? {} : { 'content-type': 'application/json' }),
      },
      ...(op.method === 'GET' || op.method === 'DELETE' ? {} : { body: '{}' }),
    })

  beforeAll(async () => {
    app = createSandboxServer({
      openapi: document,
      keys: { 'real-documents': { plan: 'enterprise', perMinute: 100_000, perDay: 1_000_000 } },
    })
    base = (await app.listen(0, '127.0.0.1')).url
    // The reference page's document: every added operation, each marked as the document's.
    const served = await (await fetch(`${base}/__sandbox/openapi.json`)).json()
    added = Object.entries(
      served.paths as Record<string, Record<string, Record<string, unknown>>>,
    ).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => typeof op === 'object' && op?.['x-sandbox-source'] === 'openapi')
        .map(([method, op]) => ({
          method: method.toUpperCase(),
          path,
          operation: String(op.operationId ?? `${method.toUpperCase()} ${path}`),
        })),
    )
  })
  afterAll(() => app.close())

  it('serves every operation of the document in the reference page’s document', async () => {
    expect(added.length).toBeGreaterThan(0)
    const served = await (await fetch(`${base}/__sandbox/openapi.json`)).text()
    expect(served).not.toMatch(/"\$ref":"#\/components\//)
  })

  it('asks every operation for a key, then counts it against the key’s quota', async () => {
    for (const [index, op] of added.entries()) {
      // Keyless requests share the address's anonymous bucket (401, then 429): fresh per five.
      if (index % 5 === 0) await app.sandbox.reset()
      const keyless = await send(op, '', {})
      expect([op.operation, keyless.status]).toEqual([op.operation, 401])
      await keyless.arrayBuffer()
      const answer = await send(op)
      expect([op.operation, answer.status < 500]).toEqual([op.operation, true])
      expect(answer.headers.get('x-ratelimit-limit')).toBe('100000')
      await answer.arrayBuffer()
    }
  })

  it('puts every operation through the scenarios and faults', async () => {
    for (const op of added) {
      const unavailable = await send(op, '?__scenario=unavailable')
      expect([op.operation, unavailable.status]).toEqual([op.operation, 503])
      expect((await unavailable.json()).code).toBe('service_unavailable')
      const failing = await send(op, '?__scenario=server-error')
      expect([op.operation, failing.status]).toEqual([op.operation, 500])
      await failing.arrayBuffer()
    }
  })

  it('journals every operation under its id, lists it in the coverage, and reports on it', async () => {
    await app.sandbox.reset()
    for (const op of added) await (await send(op)).arrayBuffer()
    const journaled = new Set(app.sandbox.journal.list().map((e) => e.operation))
    for (const op of added) expect(journaled).toContain(op.operation)
    const coverage = await app.sandbox.coverage()
    const listed = new Set(coverage.operations.map((o) => o.operation))
    for (const op of added) expect(listed).toContain(op.operation)

    const report = await fetch(`${base}/__sandbox/report`)
    expect(report.status).toBe(200)
    expect(Array.isArray((await report.json()).findings)).toBe(true)
  })
})
