import { describe, expect, it } from 'vitest'
import { REAL_DOCUMENTS, useRealDocumentServer } from '../support/real-document-server.js'

// Real documents no one here wrote (test/openapi/fixtures/real, issue 35): keys, quotas,
// scenarios, faults, the journal, the report, Pact and the reference page's document keep
// working for every operation of each.
describe.each(REAL_DOCUMENTS)('a real document, %s', (document) => {
  const real = useRealDocumentServer(document)

  it('serves every operation of the document in the reference page’s document', async () => {
    expect(real.added.length).toBeGreaterThan(0)
    const served = await (await fetch(`${real.base}/__sandbox/openapi.json`)).text()
    expect(served).not.toMatch(/"\$ref":"#\/components\//)
  })

  it('asks every operation for a key, then counts it against the key’s quota', async () => {
    for (const [index, op] of real.added.entries()) {
      // Keyless requests share the address's anonymous bucket (401, then 429): fresh per five.
      if (index % 5 === 0) await real.app.sandbox.reset()
      const keyless = await real.send(op, '', {})
      expect([op.operation, keyless.status]).toEqual([op.operation, 401])
      await keyless.arrayBuffer()
      const answer = await real.send(op)
      expect([op.operation, answer.status < 500]).toEqual([op.operation, true])
      expect(answer.headers.get('x-ratelimit-limit')).toBe('100000')
      await answer.arrayBuffer()
    }
  })

  it('puts every operation through the scenarios and faults', async () => {
    for (const op of real.added) {
      const unavailable = await real.send(op, '?__scenario=unavailable')
      expect([op.operation, unavailable.status]).toEqual([op.operation, 503])
      expect((await unavailable.json()).code).toBe('service_unavailable')
      const failing = await real.send(op, '?__scenario=server-error')
      expect([op.operation, failing.status]).toEqual([op.operation, 500])
      await failing.arrayBuffer()
    }
  })

  it('journals every operation under its id, lists it in the coverage, and reports on it', async () => {
    await real.app.sandbox.reset()
    for (const op of real.added) await (await real.send(op)).arrayBuffer()
    const journaled = new Set(real.app.sandbox.journal.list().map((e) => e.operation))
    for (const op of real.added) expect(journaled).toContain(op.operation)
    const coverage = await real.app.sandbox.coverage()
    const listed = new Set(coverage.operations.map((o) => o.operation))
    for (const op of real.added) expect(listed).toContain(op.operation)

    const report = await fetch(`${real.base}/__sandbox/report`)
    expect(report.status).toBe(200)
    expect(Array.isArray((await report.json()).findings)).toBe(true)
  })
})
