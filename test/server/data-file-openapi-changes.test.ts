import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandboxServer, type SandboxServer } from '../../src/server/index.js'

// With a big real document (a slice of GitHub's, several collections of big records), the data
// file keeps what sessions changed, not every collection's seeded records (issue 35, item 20).
const GITHUB = 'test/openapi/fixtures/real/github-issues-gists.json'
const MILESTONES = '/v1/repos/octo/hello/milestones'

describe('the data file with a big document keeps only the collections a session changed', () => {
  let dir = ''
  let path = ''
  let app: SandboxServer<string>
  let url = ''
  const send = async (
    target: string,
    init: { method?: string; session: string; body?: unknown },
  ) => {
    const response = await fetch(`${url}${target}`, {
      method: init.method ?? 'GET',
      headers: {
        authorization: 'Bearer sandbox-free',
        'content-type': 'application/json',
        'x-sandbox-session': init.session,
      },
      body: init.body === undefined ? null : JSON.stringify(init.body),
    })
    const text = await response.text()
    return { status: response.status, json: text === '' ? undefined : JSON.parse(text) }
  }
  const file = async () => JSON.parse(await readFile(path, 'utf8'))

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-data-changes-'))
    path = join(dir, 'pets.json')
    app = createSandboxServer({ dataFile: path, openapi: GITHUB })
    url = (await app.listen(0, '127.0.0.1')).url
  })
  afterAll(async () => {
    await app.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('writes nothing of a session that only read the document’s collections', async () => {
    for (const session of ['r1', 'r2', 'r3']) {
      expect((await send(MILESTONES, { session })).status).toBe(200)
      expect((await send('/v1/gists', { session })).status).toBe(200)
    }
    expect((await file()).openapi).toBeUndefined()
  })

  it('writes one changed collection of a session: its records, not every collection’s', async () => {
    const created = await send(MILESTONES, {
      method: 'POST',
      session: 'alice',
      body: { title: 'v1.0' },
    })
    expect(created.status).toBe(201)
    await send('/v1/gists', { session: 'alice' })
    const kept = (await file()).openapi
    expect(Object.keys(kept)).toEqual(['alice'])
    const collections = Object.keys(kept.alice)
    expect(collections).toHaveLength(1)
    expect(collections[0]).toMatch(/^oa:[0-9a-f]{16}:\/repos\/\{owner\}\/\{repo\}\/milestones$/)
    // Only the change over the seed (decision 0068): the created record, none of the ten seeded.
    const part = kept.alice[collections[0] as string]
    expect(part.records).toBeUndefined()
    expect(part.deleted).toEqual([])
    expect(part.changed).toEqual([{ id: '11', seq: 11, record: created.json }])
  })

  it('reads the kept change back after a restart, and the other collections from the seed', async () => {
    const before = await send(MILESTONES, { session: 'alice' })
    const gists = await send('/v1/gists', { session: 'alice' })
    await app.close()
    app = createSandboxServer({ dataFile: path, openapi: GITHUB })
    url = (await app.listen(0, '127.0.0.1')).url
    expect(await send(MILESTONES, { session: 'alice' })).toEqual(before)
    expect(await send('/v1/gists', { session: 'alice' })).toEqual(gists)
    expect((await send(MILESTONES, { session: 'bob' })).json).toHaveLength(10)
  })
})
