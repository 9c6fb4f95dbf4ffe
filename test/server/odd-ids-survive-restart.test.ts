import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createSandboxServer, type SandboxServer } from '../../src/server/index.js'
import { startTestRedis, type TestRedis } from '../support/redis-server.js'
import { killAllChildren, serverOrigin, spawnCli } from './spawn-cli.js'
import { sendHttp } from './support/send-raw.js'

// Issue 24: every id the API accepts survives a restart and can be dropped. Session ids and
// key names such as `__proto__`, `constructor`, `toString`, `.` and `..` are ids like any
// other: in the data file, on Redis, in a config file and a --key flag, and in the control
// API's paths (which the URL parser would resolve as dot-segments).
const ODD_IDS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', '.', '..'] as const

const dirs: string[] = []
const servers: SandboxServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })))
})
afterAll(() => killAllChildren())

const tempDir = async (): Promise<string> => {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-odd-ids-'))
  dirs.push(dir)
  return dir
}

const start = async (options: Parameters<typeof createSandboxServer>[0]) => {
  const app = createSandboxServer({ onError: () => {}, ...options })
  servers.push(app)
  const { url } = await app.listen(0, '127.0.0.1')
  return { app, url }
}

const createIn = (url: string, session: string, name: string) =>
  fetch(`${url}/v1/pets?__session=${encodeURIComponent(session)}`, {
    method: 'POST',
    headers: { authorization: 'Bearer sandbox-pro', 'content-type': 'application/json' },
    body: JSON.stringify({ name, categoryId: 1 }),
  })

const namesIn = async (url: string, session: string): Promise<string[]> => {
  const response = await fetch(`${url}/v1/pets?limit=100`, {
    headers: { authorization: 'Bearer sandbox-pro', 'x-sandbox-session': session },
  })
  expect(response.status).toBe(200)
  return ((await response.json()) as { name: string }[]).map((pet) => pet.name)
}

describe('odd ids in the data file', () => {
  it('keeps an acknowledged create in every odd session across a restart', async () => {
    const path = join(await tempDir(), 'pets.json')
    const first = await start({ dataFile: path })
    for (const id of ODD_IDS)
      expect((await createIn(first.url, id, `Kept in ${id}`)).status).toBe(201)
    await first.app.close()
    // The file holds each id as an own key.
    const text = await readFile(path, 'utf8')
    expect(Object.keys(JSON.parse(text).sessions).sort()).toEqual([...ODD_IDS].sort())

    const second = await start({ dataFile: path })
    for (const id of ODD_IDS) expect(await namesIn(second.url, id)).toContain(`Kept in ${id}`)
    expect(await namesIn(second.url, 'default')).not.toContain('Kept in __proto__')
  })
})

describe('odd ids through the control API', () => {
  it('lists and drops sessions . and .., written literally or as %2E, and keys named so', async () => {
    const { app, url } = await start({})
    for (const id of ODD_IDS) await createIn(url, id, 'Someone')
    const listed = (await (await fetch(`${url}/__sandbox/sessions`)).json()) as { id: string }[]
    expect(listed.map((s) => s.id).sort()).toEqual(['default', ...ODD_IDS].sort())

    const drop = (path: string) => sendHttp(url, { method: 'DELETE', path })
    expect((await drop('/__sandbox/sessions/..')).status).toBe(204)
    expect((await drop('/__sandbox/sessions/%2E')).status).toBe(204)
    expect((await drop('/__sandbox/sessions/__proto__')).status).toBe(204)
    expect((await drop('/__sandbox/sessions/constructor')).status).toBe(204)
    expect((await drop('/__sandbox/sessions/%2e%2E')).status).toBe(404)
    expect(app.sandbox.sessions.list().map((s) => s.id)).toEqual([
      'default',
      'toString',
      'hasOwnProperty',
    ])
    // Every session the listing shows can be dropped by its id.
    await createIn(url, '..', 'Again')
    for (const { id } of app.sandbox.sessions.list().filter((s) => s.id !== 'default'))
      expect((await drop(`/__sandbox/sessions/${encodeURIComponent(id)}`)).status).toBe(204)
    expect(app.sandbox.sessions.list().map((s) => s.id)).toEqual(['default'])

    for (const key of ['..', '.', '__proto__']) {
      const created = await fetch(`${url}/__sandbox/keys`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ plan: 'pro', key }),
      })
      expect(created.status).toBe(201)
    }
    expect((await drop('/__sandbox/keys/..')).status).toBe(204)
    expect((await drop('/__sandbox/keys/%2E')).status).toBe(204)
    expect((await drop('/__sandbox/keys/__proto__')).status).toBe(204)
    expect(app.sandbox.keys.list().every((k) => k.source === 'demo')).toBe(true)
  })
})

describe('odd key names in the configuration', () => {
  it('answers with keys named __proto__, constructor and toString from --key and a config file', async () => {
    const dir = await tempDir()
    const config = join(dir, 'sandbox.json')
    // Written as text: an object literal's __proto__ would set a prototype, not a key.
    await writeFile(
      config,
      '{"quiet": true, "keys": {"__proto__": "business", "toString": "free"}}',
    )
    const run = spawnCli(['--config', config, '--port', '0', '--key', 'constructor=pro'], {
      PETSTORE_SANDBOX_KEY: '..=enterprise',
    })
    const origin = await serverOrigin(run)
    // The banner names each configured key in part, with its plan (issue 21).
    expect(run.stdout().match(/\(configured\)/g)).toHaveLength(4)
    const limitOf = async (key: string) => {
      const response = await fetch(`${origin}/v1/pets`, {
        headers: { authorization: `Bearer ${key}` },
      })
      expect(response.status).toBe(200)
      return response.headers.get('x-ratelimit-limit')
    }
    expect(await limitOf('__proto__')).toBe('1000')
    expect(await limitOf('toString')).toBe('60')
    expect(await limitOf('constructor')).toBe('300')
    expect(await limitOf('..')).toBe('5000')
    run.child.kill('SIGTERM')
    expect(await run.exited).toBe(0)
  }, 30_000)
})

describe('odd ids on Redis', () => {
  let redis: TestRedis | undefined
  beforeAll(async () => {
    redis = await startTestRedis()
  }, 30_000)
  afterAll(async () => {
    await redis?.dispose()
  })

  it('keeps a pet created in session __proto__ or .. for the next instance', async () => {
    const store = (redis as TestRedis).url
    const first = await start({ store })
    for (const id of ['__proto__', '..'])
      expect((await createIn(first.url, id, `Shared in ${id}`)).status).toBe(201)
    await first.app.close()
    const second = await start({ store })
    for (const id of ['__proto__', '..'])
      expect(await namesIn(second.url, id)).toContain(`Shared in ${id}`)
    expect(
      (await sendHttp(second.url, { method: 'DELETE', path: '/__sandbox/sessions/..' })).status,
    ).toBe(204)
  })
})
