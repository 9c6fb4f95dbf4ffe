import { describe, expect, it } from 'vitest'
import { createSandbox } from '../../src/index.js'

// Issue 21, point 4: reset() resets this session; reset({ sessions: 'all' })
// also drops every other session and the keys bound to them.
const PETS = 'https://api.example.test/v1/pets'

const get = (sandbox: ReturnType<typeof createSandbox>, key: string, session?: string) =>
  sandbox.handle({
    method: 'GET',
    url: PETS,
    headers: {
      authorization: `Bearer ${key}`,
      ...(session === undefined ? {} : { 'x-sandbox-session': session }),
    },
  })

describe('sandbox.reset({ sessions })', () => {
  it('keeps other sessions and their keys with a plain reset()', async () => {
    const sandbox = createSandbox()
    const { key } = sandbox.session('alice').keys.create({ plan: 'pro' })
    await sandbox.reset()
    expect(sandbox.sessions.list().map((s) => s.id)).toEqual(['default', 'alice'])
    expect((await get(sandbox, key))?.status).toBe(200)
  })

  it('drops every other session and the keys bound to them, and resets default', async () => {
    const sandbox = createSandbox()
    const { key } = sandbox.session('alice').keys.create({ plan: 'pro' })
    sandbox.session('bob').scenario.set('empty')
    sandbox.scenario.set('unavailable')
    const dropped: string[] = []
    sandbox.events.on('session', (event) => {
      if (event.type === 'drop') dropped.push(event.session)
    })
    await sandbox.reset({ sessions: 'all' })
    expect(dropped.sort()).toEqual(['alice', 'bob'])
    expect(sandbox.sessions.list().map((s) => s.id)).toEqual(['default'])
    expect(sandbox.scenario.get()).toBe('default')
    // The key bound to a dropped session answers as an unknown key, wherever it is sent.
    const answer = await get(sandbox, key)
    expect(answer?.status).toBe(401)
    expect(JSON.parse(String(answer?.body)).code).toBe('invalid_api_key')
    // A session used again starts fresh from the seed.
    const again = await get(sandbox, 'sandbox-free', 'bob')
    expect(new Headers(again?.headers).get('x-total-count')).toBe('25')
  })

  it('refuses options it does not know, before touching anything', async () => {
    const sandbox = createSandbox()
    sandbox.session('alice')
    const bad = [{ sessions: 'every' }, { session: 'all' }, 'all', null] as never[]
    for (const options of bad) await expect(sandbox.reset(options)).rejects.toThrow(TypeError)
    await expect(sandbox.reset({ sessions: 'every' } as never)).rejects.toThrow(
      /Failed to reset: options must be \{ sessions: 'all' \}/,
    )
    expect(sandbox.sessions.list().map((s) => s.id)).toEqual(['default', 'alice'])
  })
})
