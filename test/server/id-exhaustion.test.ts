import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readDataFile } from '../../src/server/data-file/read-data-file.js'
import { createHttpTarget } from '../conformance/targets/http-target.js'

// Regression (issue 10 point 6): at nextId 2^53 - 1 creates answered 500 and the server wrote
// a nextId it then refused to start on.
const MAX = Number.MAX_SAFE_INTEGER
let dir = ''
let file = ''
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'petstore-ids-'))
  file = join(dir, 'pets.json')
  await writeFile(file, `{"version":1,"nextId":${MAX - 1},"pets":[]}\n`)
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const create = (target: ReturnType<typeof createHttpTarget>) =>
  target.send({
    method: 'POST',
    path: '/pets',
    headers: { authorization: 'Bearer sandbox-enterprise', 'content-type': 'application/json' },
    body: '{"name":"Last","categoryId":1}',
  })

describe('the id space running out', () => {
  it('creates the last ids, then answers 507 id_space_exhausted, and the file still loads', async () => {
    const first = createHttpTarget({ dataFile: file })
    await first.start()
    try {
      expect(JSON.parse((await create(first)).body)).toMatchObject({ id: MAX - 1 })
      expect(JSON.parse((await create(first)).body)).toMatchObject({ id: MAX })
      for (let i = 0; i < 2; i++) {
        const refused = await create(first)
        expect(refused.status).toBe(507)
        expect(JSON.parse(refused.body)).toEqual({
          code: 'id_space_exhausted',
          message: expect.any(String),
          status: 507,
        })
        expect(refused.headers['x-ratelimit-limit']).toBeDefined()
      }
    } finally {
      await first.stop()
    }
    const snapshot = await readDataFile(file)
    expect(snapshot?.pets.map((p) => p.id)).toEqual([MAX - 1, MAX])

    const again = createHttpTarget({ dataFile: file })
    await again.start()
    try {
      expect((await create(again)).status).toBe(507)
      const list = await again.send({
        method: 'GET',
        path: '/pets',
        headers: { authorization: 'Bearer sandbox-free' },
      })
      expect(JSON.parse(list.body)).toHaveLength(2)
    } finally {
      await again.stop()
    }
  })
})
