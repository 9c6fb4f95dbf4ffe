import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandboxServer, type SandboxServer, verify } from '../../src/server/index.js'
import { killAllChildren, spawnCli } from '../server/spawn-cli.js'

// Issue 29 item 3: `verify` with the document probes the operations it adds and checks
// their answers against it, against real sandbox servers over loopback: one started with
// the same document (passes), one whose answers drifted from it (fails, naming the fields).
const EXTRAS = fileURLToPath(
  new URL('../../examples/openapi/petstore-extras.yaml', import.meta.url),
)
const DRIFTED = fileURLToPath(new URL('../openapi/fixtures/extras-drifted.yaml', import.meta.url))
const KEY = 'sandbox-enterprise'
const DOCUMENT_CHECKS = [
  'spec.document.reads',
  'spec.document.status',
  'spec.document.body',
  'spec.document.missing-fields',
  'spec.document.invalid-values',
]

const apps: SandboxServer[] = []
const serve = async (openapi: string | undefined): Promise<{ app: SandboxServer; url: string }> => {
  const app = createSandboxServer(openapi === undefined ? {} : { openapi })
  apps.push(app)
  const { url } = await app.listen(0, '127.0.0.1')
  return { app, url: `${url}/v1` }
}
let same: { app: SandboxServer; url: string }
let drifted: { app: SandboxServer; url: string }

beforeAll(async () => {
  ;[same, drifted] = await Promise.all([serve(EXTRAS), serve(DRIFTED)])
})
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()))
  killAllChildren()
})

interface Entry {
  method: string
  operation: string | null
}
const journal = async (target: { url: string }): Promise<Entry[]> =>
  (await fetch(`${target.url.replace(/\/v1$/, '')}/__sandbox/requests`)).json() as Promise<Entry[]>
const methodsSent = async (target: { url: string }, since: number): Promise<string[]> =>
  (await journal(target)).slice(since).map((e) => `${e.method} ${e.operation}`)

describe('verify with an OpenAPI document', () => {
  it('passes a sandbox serving the same document, every document check run, with writes', async () => {
    const before = (await journal(same)).length
    const report = await verify({ target: same.url, key: KEY, allowWrites: true, openapi: EXTRAS })
    const failed = report.checks.filter((c) => !c.pass && c.kind === 'spec')
    expect(failed, JSON.stringify(failed)).toEqual([])
    expect(report.passed).toBe(true)
    for (const id of DOCUMENT_CHECKS) {
      const check = report.checks.find((c) => c.id === id)
      expect(check?.pass, `${id}: ${check?.message}`).toBe(true)
    }
    const sent = await methodsSent(same, before)
    // Every GET operation of the document once; the writes only with invalid bodies.
    for (const id of ['listCategories', 'getCategory', 'getOrder', 'getInventory'])
      expect(sent).toContain(`GET ${id}`)
    expect(sent).toContain('POST createCategory')
    expect(sent).toContain('PUT replaceCategory')
    // CategoryPatch requires no field: nothing to leave out, so no PATCH is sent.
    expect(sent).not.toContain('PATCH updateCategory')
    expect(sent).toContain('POST placeOrder')
    expect(sent).not.toContain('DELETE deleteCategory')
    // Nothing was created or changed: the invalid bodies were refused.
    const listed = await fetch(`${same.url}/categories?limit=100`, {
      headers: { authorization: `Bearer ${KEY}` },
    })
    expect(((await listed.json()) as unknown[]).length).toBe(10)
    expect(report.checks.find((c) => c.id === 'spec.document.missing-fields')?.message).toContain(
      'POST /categories without name',
    )
  })

  it('fails a sandbox whose answers drifted from the document, naming the operation and the fields', async () => {
    const report = await verify({ target: drifted.url, key: KEY, openapi: EXTRAS })
    expect(report.passed).toBe(false)
    const body = report.checks.find((c) => c.id === 'spec.document.body')
    expect(body?.pass).toBe(false)
    expect(body?.message).toMatch(
      /^listCategories answered 200 with a body its document does not allow: \/0\/id must be integer; \/0\/name must be string.* \(GET \/categories → 200\)$/,
    )
    // The contract's own checks still pass: only the document's operations drifted.
    const failed = report.checks.filter((c) => !c.pass).map((c) => c.id)
    expect(failed).toEqual(['spec.document.body'])
  })

  it('is read-only by default: the write checks are skipped and no write is sent', async () => {
    const before = (await journal(same)).length
    const report = await verify({ target: same.url, key: KEY, openapi: EXTRAS })
    expect(report.passed).toBe(true)
    const sent = await methodsSent(same, before)
    expect(sent.filter((s) => !s.startsWith('GET '))).toEqual([])
    for (const id of ['spec.document.missing-fields', 'spec.document.invalid-values'])
      expect(report.skipped.find((s) => s.id === id)?.reason, id).toBe(
        "Needs --allow-writes (it sends invalid bodies to the document's write operations).",
      )
  })

  it('leaves the document checks out of a run without a document, whose report stays as before', async () => {
    const report = await verify({ target: same.url, key: KEY, maxRequests: 60 })
    const ids = [...report.checks, ...report.skipped].map((c) => c.id)
    for (const id of DOCUMENT_CHECKS) expect(ids, id).not.toContain(id)
    expect(report.passed).toBe(true)
    expect(report.requests).toBe(17)
  })

  it('refuses a document it cannot read before sending anything', async () => {
    await expect(
      verify({ target: same.url, key: KEY, openapi: { openapi: '2.0', paths: {} } }),
    ).rejects.toThrow(
      /^Failed to verify: openapi: Failed to load the OpenAPI document: "openapi" is "2.0"/,
    )
  })

  it('checks the document from the CLI: verify --openapi FILE exits 1 on a drifted server, 2 for an unreadable document', async () => {
    // Both CLI runs at once, against the in-process drifted server (a loaded machine spawns slowly).
    const args = ['verify', '--target', drifted.url, '--key', KEY, '--openapi']
    const run = spawnCli([...args, EXTRAS])
    const bad = spawnCli([...args, 'nope.yaml'])
    const [code, badCode] = await Promise.all([run.exited, bad.exited])
    expect(code, run.stderr()).toBe(1)
    expect(run.stdout()).toMatch(/FAIL {2}spec\.document\.body +listCategories answered 200/)
    expect(run.stdout()).toMatch(/PASS {2}spec\.document\.reads/)
    expect(badCode).toBe(2)
    expect(bad.stderr()).toContain('Failed to verify: openapi: Failed to load the OpenAPI document')
    expect(bad.stderr()).toContain('Run "petstore-sandbox verify --help" for the options.')
  })
})
