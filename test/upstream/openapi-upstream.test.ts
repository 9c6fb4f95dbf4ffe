import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { killAllChildren } from '../server/spawn-cli.js'
import { startSandboxUpstream, type UpstreamProcess } from '../support/upstream-processes.js'
import { type Front, startFront } from './upstream-front.js'

// Issue 29 item 3 on the standalone server: the operations of an OpenAPI document are
// checked against it in upstream mode, as the contract's are. The upstreams are real
// processes: one sandbox serving the same document, one serving a drifted copy of it.
const EXTRAS = fileURLToPath(
  new URL('../../examples/openapi/petstore-extras.yaml', import.meta.url),
)
const DRIFTED = fileURLToPath(new URL('../openapi/fixtures/extras-drifted.yaml', import.meta.url))

let same: UpstreamProcess
let drifted: UpstreamProcess
const fronts: Front[] = []
const front = async (options: Parameters<typeof startFront>[0]): Promise<Front> => {
  const started = await startFront({ openapi: EXTRAS, ...options })
  fronts.push(started)
  return started
}

interface Entry {
  url: string
  operation: string | null
  status: number | null
  source: string
  violations: { rule: string; message: string }[]
}

const lastEntry = async (f: Front): Promise<Entry> => {
  const entries = (await f.journal()) as unknown as Entry[]
  return entries.at(-1) as Entry
}

beforeAll(async () => {
  ;[same, drifted] = await Promise.all([
    startSandboxUpstream(['--seed', '7', '--openapi', EXTRAS]),
    startSandboxUpstream(['--seed', '7', '--openapi', DRIFTED]),
  ])
}, 60_000)

afterAll(async () => {
  await Promise.all(fronts.map((f) => f.close()))
  await Promise.all([same?.stop(), drifted?.stop()])
  killAllChildren()
})

describe("upstream mode checks a document's operations against the document", () => {
  it('forwards listCategories to an upstream that keeps the document and journals no violation', async () => {
    const f = await front({ upstream: same.url })
    const response = await f.get('/v1/categories?limit=2')
    expect(response.status).toBe(200)
    const categories = (await response.json()) as { id: number; name: string }[]
    expect(categories).toHaveLength(2)
    const entry = await lastEntry(f)
    expect(entry).toMatchObject({ operation: 'listCategories', source: 'upstream', violations: [] })
    // One of each: a fetched record, a fixed answer, the contract's own pets.
    for (const path of [`/v1/categories/${categories[0]?.id}`, '/v1/store/inventory', '/v1/pets']) {
      expect((await f.get(path)).status, path).toBe(200)
      expect((await lastEntry(f)).violations, path).toEqual([])
    }
  })

  it("passes a drifted upstream's answer on untouched and journals each field it breaks", async () => {
    const f = await front({ upstream: drifted.url })
    const direct = await fetch(`${drifted.url}/categories?limit=2`, {
      headers: { authorization: 'Bearer sandbox-free' },
    })
    const response = await f.get('/v1/categories?limit=2')
    expect(response.status).toBe(200)
    expect(await response.text()).toBe(await direct.text())
    const entry = await lastEntry(f)
    expect(entry.operation).toBe('listCategories')
    expect(entry.violations.map((v) => v.rule)).toEqual(['spec.document.body'])
    const [violation] = entry.violations
    expect(violation?.message).toContain('listCategories answered 200')
    expect(violation?.message).toContain('/0/id must be integer')
    expect(violation?.message).toContain('/0/name must be string')

    expect((await f.get('/v1/store/inventory')).status).toBe(200)
    const inventory = await lastEntry(f)
    expect(inventory.operation).toBe('getInventory')
    expect(inventory.violations).toEqual([
      {
        rule: 'spec.document.body',
        message:
          'getInventory answered 200 with a body its document does not allow: /available must be integer.',
      },
    ])
  })

  it('replaces a drifted answer in strict mode with 502 upstream_contract_violation naming the fields', async () => {
    const f = await front({ upstream: { url: drifted.url, strict: true } })
    const response = await f.get('/v1/categories?limit=1')
    expect(response.status).toBe(502)
    expect(response.headers.get('x-ratelimit-limit')).not.toBeNull()
    const body = (await response.json()) as {
      code: string
      status: number
      message: string
      details: { field: string; message: string }[]
    }
    expect(body).toMatchObject({ code: 'upstream_contract_violation', status: 502 })
    expect(body.details).toHaveLength(1)
    expect(body.details[0]?.field).toBe('spec.document.body')
    expect(body.details[0]?.message).toMatch(/\/0\/id must be integer; \/0\/name must be string/)
    expect(body.message).toContain('spec.document.body')
    expect(await lastEntry(f)).toMatchObject({ status: 502, source: 'upstream' })
  })

  it("lets a drifted upstream's error for an id the front's document would refuse through in strict mode (400 is the sandbox's own status)", async () => {
    const f = await front({ upstream: { url: drifted.url, strict: true } })
    // The front forwards without judging the request; the drifted upstream refuses a non-uuid.
    const response = await f.get('/v1/categories/3')
    expect(response.status).toBe(400)
    expect((await response.json()) as { code: string }).toMatchObject({
      code: 'invalid_parameter',
    })
    expect((await lastEntry(f)).violations).toEqual([])
  })

  it('keeps strict mode passing answers that keep the document', async () => {
    const f = await front({ upstream: { url: same.url, strict: true } })
    const created = await f.send('POST', '/v1/categories', {
      headers: { authorization: 'Bearer sandbox-free', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Überfische 🐟' }),
    })
    expect(created.status).toBe(201)
    expect(await created.json()).toMatchObject({ name: 'Überfische 🐟' })
    const deleted = await f.send('DELETE', '/v1/categories/1')
    expect(deleted.status).toBe(204)
    expect((await lastEntry(f)).violations).toEqual([])
  })
})
