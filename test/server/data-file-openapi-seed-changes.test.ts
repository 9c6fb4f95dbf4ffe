import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createSandboxServer, type SandboxServer } from '../../src/server/index.js'

// The data file keeps each session's OpenAPI records as its changes over the seed (decision
// 0068, version 5): the seed they apply to is recorded, a file of version 4 (whole
// collections, as 545630b wrote it) still loads, another --seed is refused.
const DOCUMENT = 'examples/openapi/petstore-extras.yaml'
// Written by the CLI built at 545630b (--openapi DOCUMENT --data --accounts open): in the
// default session category 11 created, 2 patched, 3 deleted; in alice, 11 created. Byte for
// byte as written (not `.json`, which the formatter would rewrite).
const V4_FILE = 'test/server/fixtures/data-file-v4-545630b.data'
const ADMIN = 'admin-token-for-a-test-0123456789'

const dirs: string[] = []
const servers: SandboxServer<string>[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })))
})

const start = async (
  dataFile: string | undefined,
  options: { seed?: number; openapi?: string | undefined; accounts?: boolean } = {},
) => {
  const app = createSandboxServer<string>({
    dataFile,
    openapi: 'openapi' in options ? options.openapi : DOCUMENT,
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.accounts ? { accounts: 'open' as const, adminToken: ADMIN } : {}),
  })
  servers.push(app)
  const { url } = await app.listen(0, '127.0.0.1')
  const send = async (
    path: string,
    init: { method?: string; session?: string; body?: unknown } = {},
  ) => {
    const response = await fetch(`${url}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        authorization: 'Bearer sandbox-free',
        'content-type': 'application/json',
        ...(init.session === undefined ? {} : { 'x-sandbox-session': init.session }),
      },
      body: init.body === undefined ? null : JSON.stringify(init.body),
    })
    const text = await response.text()
    return { status: response.status, json: text === '' ? undefined : JSON.parse(text) }
  }
  const stop = async () => {
    servers.splice(servers.indexOf(app), 1)
    await app.close()
  }
  return { send, stop }
}

const dataFile = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-data-changes-'))
  dirs.push(dir)
  return join(dir, 'pets.json')
}

const read = async (path: string) => JSON.parse(await readFile(path, 'utf8'))

describe('the data file keeps the OpenAPI records as changes over the seed', () => {
  it('loads a version 4 file of whole collections (545630b’s) and writes it back as changes', async () => {
    const path = await dataFile()
    await copyFile(V4_FILE, path)
    const seeded = await start(undefined)
    const fresh = (await seeded.send('/v1/categories')).json as { id: number }[]
    await seeded.stop()

    const app = await start(path, { accounts: true })
    const categories = (await app.send('/v1/categories')).json as { id: number; name: string }[]
    expect(categories.map((c) => c.id)).toEqual([1, 2, 4, 5, 6, 7, 8, 9, 10, 11])
    expect(categories.find((c) => c.id === 2)?.name).toBe('Patched by 545630b')
    expect(categories.find((c) => c.id === 11)?.name).toBe('Written by 545630b')
    // The records it did not change are the seed's.
    expect(categories.find((c) => c.id === 4)).toEqual(fresh.find((c) => c.id === 4))
    expect((await app.send('/v1/categories/3')).status).toBe(404)
    expect((await app.send('/v1/categories/11', { session: 'alice' })).json.name).toBe(
      'Alice by 545630b',
    )
    // The next write makes it version 5: every session's changes, no seeded record.
    await app.send('/v1/categories', { method: 'POST', session: 'bob', body: { name: 'Bob’s' } })
    const file = await read(path)
    expect(file.version).toBe(5)
    expect(file.openapiSeed).toEqual({ seed: 20301205, count: 10 })
    expect(file.accounts).toEqual({ accounts: [], keys: [], invites: [], logins: [] })
    const [key] = Object.keys(file.openapi.default)
    const own = file.openapi.default[key as string]
    expect(own.deleted).toEqual(['3'])
    expect(own.changed.map((c: { id: string }) => c.id)).toEqual(['2', '11'])
    expect(file.openapi.alice[key as string].changed).toEqual([
      { id: '11', seq: 11, record: { name: 'Alice by 545630b', id: 11 } },
    ])
    expect(Object.keys(file.openapi)).toEqual(['default', 'alice', 'bob'])
    await app.stop()
    // And back again from version 5, ids going on after the kept ones.
    const again = await start(path, { accounts: true })
    expect((await again.send('/v1/categories')).json).toEqual(categories)
    expect(
      (await again.send('/v1/categories', { method: 'POST', body: { name: 'N' } })).json.id,
    ).toBe(12)
  })

  it('refuses another --seed than the changes were made over, naming it, the file untouched', async () => {
    const path = await dataFile()
    const first = await start(path, { seed: 7 })
    const seven = (await first.send('/v1/categories')).json
    await first.send('/v1/categories/4', { method: 'PATCH', body: { name: 'Over seed 7' } })
    await first.stop()
    const text = await readFile(path, 'utf8')
    expect(JSON.parse(text).openapiSeed).toEqual({ seed: 7, count: 10 })

    const other = createSandboxServer<string>({ dataFile: path, openapi: DOCUMENT })
    await expect(other.listen(0, '127.0.0.1')).rejects.toThrow(
      /its OpenAPI records are changes over the records seeded with --seed 7, and this server has --seed 20301205\. Start it with --seed 7, or move the file; it was left untouched\./,
    )
    await other.close().catch(() => {})
    expect(await readFile(path, 'utf8')).toBe(text)

    const same = await start(path, { seed: 7 })
    const kept = (await same.send('/v1/categories')).json as { id: number; name: string }[]
    expect(kept.find((c) => c.id === 4)?.name).toBe('Over seed 7')
    expect(kept.filter((c) => c.id !== 4)).toEqual(
      (seven as { id: number }[]).filter((c) => c.id !== 4),
    )
  })

  it('carries the changes and their seed through a start without --openapi', async () => {
    const path = await dataFile()
    const first = await start(path)
    await first.send('/v1/categories', { method: 'POST', body: { name: 'Carried' } })
    await first.stop()
    const without = await start(path, { openapi: undefined })
    // A pet's write rewrites the file: the document's changes and their seed stay.
    expect(
      (await without.send('/v1/pets', { method: 'POST', body: { name: 'Rex', categoryId: 2 } }))
        .status,
    ).toBe(201)
    await without.stop()
    const file = await read(path)
    expect([file.version, file.openapiSeed]).toEqual([5, { seed: 20301205, count: 10 }])
    const back = await start(path)
    expect((await back.send('/v1/categories/11')).json.name).toBe('Carried')
  })

  it('refuses changes without their seed, or in a file of an older version', async () => {
    const path = await dataFile()
    const first = await start(path)
    await first.send('/v1/categories', { method: 'POST', body: { name: 'Kept' } })
    await first.stop()
    const file = await read(path)
    const { openapiSeed, ...noSeed } = file
    expect(openapiSeed).toBeDefined()
    await writeFile(path, JSON.stringify(noSeed))
    const a = createSandboxServer<string>({ dataFile: path, openapi: DOCUMENT })
    await expect(a.listen(0, '127.0.0.1')).rejects.toThrow(
      /not a petstore-sandbox data file \(openapiSeed is required when openapi holds changes over the seed\)/,
    )
    await a.close().catch(() => {})
    await writeFile(path, JSON.stringify({ ...file, version: 4 }))
    const b = createSandboxServer<string>({ dataFile: path, openapi: DOCUMENT })
    await expect(b.listen(0, '127.0.0.1')).rejects.toThrow(
      /version must be 5 when openapi holds changes over the seed/,
    )
    await b.close().catch(() => {})
  })
})
