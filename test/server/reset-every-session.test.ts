import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandboxServer, type SandboxServer } from '../../src/server/index.js'
import { startTestRedis, type TestRedis } from '../support/redis-server.js'

// Issue 21, point 4, over HTTP: POST /__sandbox/reset?sessions=all resets
// default and drops every other session with its keys, in memory and on a
// real Redis (through the state seam, the same code for both).
const expectResetOfEverySession = (
  start: () => Promise<{ origin: string; app: SandboxServer }>,
) => {
  let origin = ''
  let app: SandboxServer
  beforeAll(async () => {
    ;({ origin, app } = await start())
  })
  afterAll(() => app?.close())

  const control = async (method: string, path: string, init: RequestInit = {}) => {
    const response = await fetch(`${origin}/__sandbox${path}`, { method, ...init })
    const text = await response.text()
    return { status: response.status, json: text === '' ? null : JSON.parse(text) }
  }
  const pets = (key: string, session?: string) =>
    fetch(`${origin}/v1/pets`, {
      headers: {
        authorization: `Bearer ${key}`,
        ...(session === undefined ? {} : { 'x-sandbox-session': session }),
      },
    })

  it('drops every session but default, and the keys bound to them', async () => {
    const created = await control('POST', '/keys', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ plan: 'pro', session: 'alice' }),
    })
    const key = (created.json as { key: string }).key
    expect((await pets(key)).status).toBe(200)
    await control('PUT', '/scenario?__session=bob', {
      headers: { 'content-type': 'application/json' },
      body: '{"name":"empty"}',
    })
    await control('PUT', '/scenario', {
      headers: { 'content-type': 'application/json' },
      body: '{"name":"unavailable"}',
    })
    expect((await control('POST', '/reset?sessions=all')).status).toBe(204)
    const sessions = (await control('GET', '/sessions')).json as { id: string }[]
    expect(sessions.map((s) => s.id)).toEqual(['default'])
    expect(((await control('GET', '/scenario')).json as { name: string }).name).toBe('default')
    const refused = await pets(key)
    expect(refused.status).toBe(401)
    expect(((await refused.json()) as { code: string }).code).toBe('invalid_api_key')
    expect((await pets('sandbox-free', 'bob')).headers.get('x-total-count')).toBe('25')
  })

  it('keeps other sessions with a plain reset', async () => {
    await pets('sandbox-free', 'carol')
    expect((await control('POST', '/reset')).status).toBe(204)
    const sessions = (await control('GET', '/sessions')).json as { id: string }[]
    expect(sessions.map((s) => s.id)).toContain('carol')
  })

  it('answers 400 invalid_parameter naming sessions for another value, a repeat, or a selected session', async () => {
    for (const path of [
      '/reset?sessions=every',
      '/reset?sessions=all&sessions=all',
      '/reset?sessions=all&__session=carol',
    ]) {
      const answer = await control('POST', path)
      expect(answer.status, path).toBe(400)
      expect(answer.json, path).toMatchObject({
        code: 'invalid_parameter',
        details: [{ field: 'sessions' }],
      })
    }
    const sessions = (await control('GET', '/sessions')).json as { id: string }[]
    expect(sessions.map((s) => s.id)).toContain('carol')
  })

  it('does the same from code: await app.sandbox.reset({ sessions: "all" })', async () => {
    await pets('sandbox-free', 'dave')
    await app.sandbox.reset({ sessions: 'all' })
    const sessions = (await control('GET', '/sessions')).json as { id: string }[]
    expect(sessions.map((s) => s.id)).toEqual(['default'])
  })
}

describe('reset?sessions=all in memory', () => {
  expectResetOfEverySession(async () => {
    const app = createSandboxServer()
    return { app, origin: (await app.listen(0, '127.0.0.1')).url }
  })
})

describe('reset?sessions=all on a shared Redis store', () => {
  let redis: TestRedis
  afterAll(() => redis?.dispose())
  expectResetOfEverySession(async () => {
    redis = await startTestRedis()
    const app = createSandboxServer({ store: redis.url })
    return { app, origin: (await app.listen(0, '127.0.0.1')).url }
  })
})
