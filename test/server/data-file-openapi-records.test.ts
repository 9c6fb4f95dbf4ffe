import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createSandboxServer, type SandboxServer } from '../../src/server/index.js'

// The OpenAPI document's records kept by the data file (decision 0049):
// written with the pets before the answer, loaded at start, per session,
// reset to the seed, checked against the document on load.
const DOCUMENT = 'examples/openapi/petstore-extras.yaml'
const THINGS = 'test/openapi/fixtures/things-3.0.json'

type Categories = { Category: { properties: Record<string, unknown> } }

const dirs: string[] = []
const servers: SandboxServer<string>[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })))
})

const start = async (dataFile: string, openapi: string | Record<string, unknown> = DOCUMENT) => {
  const app = createSandboxServer({ dataFile, openapi })
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
  return { app, url, send, stop }
}

const dataFile = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-data-openapi-'))
  dirs.push(dir)
  return join(dir, 'pets.json')
}

describe('the data file keeps the OpenAPI document’s records', () => {
  it('keeps a created, a patched and a deleted category across a restart, per session', async () => {
    const path = await dataFile()
    const first = await start(path)
    const created = await first.send('/v1/categories', {
      method: 'POST',
      body: { name: 'Kept 🦎' },
    })
    expect(created.status).toBe(201)
    // Written before the answer: the file holds it now.
    const file = JSON.parse(await readFile(path, 'utf8'))
    // Version 5 (decision 0068): the session's changes over the seed and the seed they apply to.
    expect(file.version).toBe(5)
    expect(file.openapiSeed).toEqual({ seed: 20301205, count: 10 })
    const [key] = Object.keys(file.openapi.default)
    expect(key).toMatch(/^oa:[0-9a-f]{16}:\/categories$/)
    expect(file.openapi.default[key as string]).toEqual({
      nextSeq: 12,
      deleted: [],
      changed: [{ id: '11', seq: 11, record: created.json }],
    })
    await first.send('/v1/categories/2', { method: 'PATCH', body: { name: 'Patched' } })
    await first.send('/v1/categories/3', { method: 'DELETE' })
    // The patched and the deleted seeded records, never the eight left as seeded.
    const changes = JSON.parse(await readFile(path, 'utf8')).openapi.default[key as string]
    expect(changes.deleted).toEqual(['3'])
    expect(changes.changed.map((c: { id: string; seq: number }) => [c.id, c.seq])).toEqual([
      ['2', 2],
      ['11', 11],
    ])
    expect(changes.changed[0].record.name).toBe('Patched')
    await first.send('/v1/categories', {
      method: 'POST',
      session: 'alice',
      body: { name: 'Alice’s' },
    })
    await first.stop()

    const second = await start(path)
    expect((await second.send('/v1/categories/11')).json).toEqual(created.json)
    expect((await second.send('/v1/categories/2')).json.name).toBe('Patched')
    expect((await second.send('/v1/categories/3')).status).toBe(404)
    expect((await second.send('/v1/categories/11', { session: 'alice' })).json.name).toBe('Alice’s')
    // Ids go on after the kept ones, never reused.
    const next = await second.send('/v1/categories', { method: 'POST', body: { name: 'Next' } })
    expect(next.json.id).toBe(12)
  })

  it('a reset goes back to the seeded records and rewrites the file without them', async () => {
    const path = await dataFile()
    const first = await start(path)
    const seeded = await first.send('/v1/categories/2')
    await first.send('/v1/categories/2', { method: 'PUT', body: { name: 'Replaced' } })
    await first.send('/v1/categories', { method: 'POST', session: 'bob', body: { name: 'Bob’s' } })
    expect((await fetch(`${first.url}/__sandbox/reset`, { method: 'POST' })).status).toBe(204)
    expect((await first.send('/v1/categories/2')).json).toEqual(seeded.json)
    let file = JSON.parse(await readFile(path, 'utf8'))
    expect(Object.keys(file.openapi)).toEqual(['bob'])
    await fetch(`${first.url}/__sandbox/reset?__session=bob`, { method: 'POST' })
    file = JSON.parse(await readFile(path, 'utf8'))
    expect([file.version, file.openapi]).toEqual([1, undefined])
    await first.stop()
    const second = await start(path)
    expect((await second.send('/v1/categories/11', { session: 'bob' })).status).toBe(404)
  })

  it('a dropped session leaves the file; the others stay', async () => {
    const path = await dataFile()
    const first = await start(path)
    for (const session of ['carol', 'dave'])
      await first.send('/v1/categories', { method: 'POST', session, body: { name: session } })
    expect(Object.keys(JSON.parse(await readFile(path, 'utf8')).openapi)).toEqual(['carol', 'dave'])
    const dropped = await fetch(`${first.url}/__sandbox/sessions/carol`, { method: 'DELETE' })
    expect(dropped.status).toBe(204)
    // A drop is written behind its answer (as for the pets); closing flushes the file.
    await first.stop()
    expect(Object.keys(JSON.parse(await readFile(path, 'utf8')).openapi)).toEqual(['dave'])
  })

  it('keeps uuid ids (a 3.0 document) and loads a version 1 file without records', async () => {
    const path = await dataFile()
    await writeFile(path, '{"version":1,"nextId":1,"pets":[]}\n')
    const first = await start(path, THINGS)
    expect((await first.send('/v1/pets')).json).toEqual([])
    const created = await first.send('/v1/things', {
      method: 'POST',
      body: { label: 'ünï', color: 'blue' },
    })
    expect(created.json.thingId).toBe('00000000-0000-4000-8000-00000000000b')
    await first.stop()
    const second = await start(path, THINGS)
    expect((await second.send(`/v1/things/${created.json.thingId}`)).json).toEqual(created.json)
    const next = await second.send('/v1/things', {
      method: 'POST',
      body: { label: 'zwei', color: 'red' },
    })
    expect(next.json.thingId).toBe('00000000-0000-4000-8000-00000000000c')
  })

  it('refuses to start on a record that does not fit the document, the file untouched', async () => {
    const path = await dataFile()
    const first = await start(path)
    await first.send('/v1/categories', { method: 'POST', body: { name: 'Fine' } })
    await first.stop()
    const text = await readFile(path, 'utf8')
    const file = JSON.parse(text)
    const [key] = Object.keys(file.openapi.default)
    file.openapi.default[key as string].changed.at(-1).record.name = 42
    const broken = JSON.stringify(file)
    await writeFile(path, broken)
    const app = createSandboxServer({ dataFile: path, openapi: DOCUMENT })
    await expect(app.listen(0, '127.0.0.1')).rejects.toThrow(
      /OpenAPI records do not fit the document \(openapi\.default\.oa:[0-9a-f]{16}:\/categories\.changed\.0\.record is not valid against the record schema of \/categories \(\/name must be string\)/,
    )
    await app.close().catch(() => {})
    expect(await readFile(path, 'utf8')).toBe(broken)
    // A record whose id is not the one it is kept under.
    file.openapi.default[key as string].changed.at(-1).record = { id: 12, name: 'Fine' }
    await writeFile(path, JSON.stringify(file))
    const moved = createSandboxServer({ dataFile: path, openapi: DOCUMENT })
    await expect(moved.listen(0, '127.0.0.1')).rejects.toThrow(
      /categories\.changed\.0\.record's id is not its id "11"/,
    )
    await moved.close().catch(() => {})
    // Not a record object at all: refused by the file's schema.
    file.openapi.default[key as string].changed = [{ id: '11', seq: 11, record: 'text' }]
    await writeFile(path, JSON.stringify(file))
    const other = createSandboxServer({ dataFile: path, openapi: DOCUMENT })
    await expect(other.listen(0, '127.0.0.1')).rejects.toThrow(/not a petstore-sandbox data file/)
    await other.close().catch(() => {})
  })

  it('keeps another document’s records apart, as they were, and does not serve them', async () => {
    const path = await dataFile()
    const first = await start(path)
    await first.send('/v1/categories', { method: 'POST', body: { name: 'Old document' } })
    await first.stop()
    const [oldKey] = Object.keys(JSON.parse(await readFile(path, 'utf8')).openapi.default).filter(
      (k) => k.endsWith(':/categories'),
    )
    const { loadOpenApiDocument } = await import('../../src/openapi/load-openapi-document.js')
    // structuredClone keeps the dereferenced document's shared schema objects shared.
    const changed = structuredClone(await loadOpenApiDocument(DOCUMENT)) as unknown as Record<
      string,
      unknown
    >
    const { schemas } = (changed as unknown as { components: { schemas: Categories } }).components
    schemas.Category.properties.note = { type: 'string' }
    const second = await start(path, changed)
    expect((await second.send('/v1/categories/11')).status).toBe(404)
    await second.send('/v1/categories', { method: 'POST', body: { name: 'New document' } })
    const file = JSON.parse(await readFile(path, 'utf8'))
    const categories = Object.keys(file.openapi.default).filter((k) => k.endsWith(':/categories'))
    // The old document's records under their key, as they were; the new one's under another.
    expect(categories).toHaveLength(2)
    expect(categories).toContain(oldKey)
    expect(file.openapi.default[oldKey as string].changed.at(-1).record.name).toBe('Old document')
    await second.stop()
    const third = await start(path)
    expect((await third.send('/v1/categories/11')).json.name).toBe('Old document')
  })
})
