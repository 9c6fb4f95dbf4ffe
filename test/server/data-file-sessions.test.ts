import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createSandboxServer, type SandboxServer } from '../../src/server/index.js'

const dirs: string[] = []
const servers: SandboxServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })))
})

const start = async (dataFile: string) => {
  const app = createSandboxServer({ dataFile })
  servers.push(app)
  const { url } = await app.listen(0, '127.0.0.1')
  const send = (path: string, init: { method?: string; session?: string; body?: unknown } = {}) =>
    fetch(`${url}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        authorization: 'Bearer sandbox-free',
        'content-type': 'application/json',
        ...(init.session === undefined ? {} : { 'x-sandbox-session': init.session }),
      },
      body: init.body === undefined ? null : JSON.stringify(init.body),
    })
  const names = async (session?: string) =>
    ((await (await send('/v1/pets?limit=100', { session })).json()) as { name: string }[]).map(
      (p) => p.name,
    )
  return { app, send, names }
}

const dataFile = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-data-sessions-'))
  dirs.push(dir)
  return join(dir, 'pets.json')
}

describe('the data file keeps every session’s pets', () => {
  it('writes a session’s creates before answering, and loads them again on restart', async () => {
    const path = await dataFile()
    const first = await start(path)
    expect(
      (
        await first.send('/v1/pets', {
          method: 'POST',
          session: 'alice',
          body: { name: 'Kept for Alice', categoryId: 1 },
        })
      ).status,
    ).toBe(201)
    await first.send('/v1/pets', {
      method: 'POST',
      body: { name: 'Kept for default', categoryId: 2 },
    })
    const file = JSON.parse(await readFile(path, 'utf8'))
    expect(file.version).toBe(2)
    expect(Object.keys(file.sessions)).toEqual(['alice'])
    expect(file.sessions.alice.nextId).toBe(27)
    await first.app.close()
    servers.length = 0

    const second = await start(path)
    expect(await second.names('alice')).toContain('Kept for Alice')
    expect(await second.names('alice')).not.toContain('Kept for default')
    expect(await second.names()).toContain('Kept for default')
    // Ids go on after the kept ones.
    const next = await second.send('/v1/pets', {
      method: 'POST',
      session: 'alice',
      body: { name: 'Next', categoryId: 1 },
    })
    expect(await next.json()).toMatchObject({ id: 27 })
  })

  it('leaves out a session once it is reset or dropped, and writes version 1 when none is left', async () => {
    const path = await dataFile()
    const { send, app } = await start(path)
    for (const session of ['bob', 'carol'])
      await send('/v1/pets', { method: 'POST', session, body: { name: session, categoryId: 1 } })
    expect(Object.keys(JSON.parse(await readFile(path, 'utf8')).sessions)).toEqual(['bob', 'carol'])
    const control = (method: string, route: string) =>
      fetch(
        `http://127.0.0.1:${(app.server.address() as { port: number }).port}/__sandbox${route}`,
        {
          method,
        },
      )
    expect((await control('POST', '/reset?__session=bob')).status).toBe(204)
    expect(Object.keys(JSON.parse(await readFile(path, 'utf8')).sessions)).toEqual(['carol'])
    expect((await control('DELETE', '/sessions/carol')).status).toBe(204)
    await app.close()
    servers.length = 0
    const file = JSON.parse(await readFile(path, 'utf8'))
    expect(file.version).toBe(1)
    expect(file.sessions).toBeUndefined()
  })

  it('refuses a file whose session id or session pets break the rules, naming them', async () => {
    const path = await dataFile()
    const { writeFile } = await import('node:fs/promises')
    await writeFile(
      path,
      JSON.stringify({
        version: 2,
        nextId: 1,
        pets: [],
        sessions: {
          'bad id': { nextId: 1, pets: [] },
          ok: { nextId: 1, pets: [{ id: 5, name: 'x', categoryId: 1, status: 'sold' }] },
        },
      }),
    )
    const app = createSandboxServer({ dataFile: path })
    await expect(app.listen(0, '127.0.0.1')).rejects.toThrow(
      /sessions\.bad id.*must be a session id|sessions\.ok\.pets\.0\.id is not below nextId/,
    )
  })
})
