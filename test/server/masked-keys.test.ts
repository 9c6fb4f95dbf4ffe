import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpTarget } from '../conformance/targets/http-target.js'

// Issue 10 point 9: GET /__sandbox/keys and the dashboard showed generated keys in full.
const target = createHttpTarget({ keys: { 'team-key-1': 'pro' } })
beforeAll(() => target.start())
afterAll(() => target.stop())

describe('keys created at run time', () => {
  it('are returned in full once by POST, then listed masked; demo and option keys stay whole', async () => {
    const created = (await target.control('POST', '/keys', { plan: 'free' })) as { key: string }
    expect(created.key).toMatch(/^sk_sandbox_[0-9a-f]{16,}$/)
    const list = (await target.control('GET', '/keys')) as {
      key: string
      source: string
      masked?: boolean
    }[]
    const text = JSON.stringify(list)
    expect(text).not.toContain(created.key)
    const runtime = list.find((k) => k.source === 'runtime')
    expect(runtime).toMatchObject({ key: `${created.key.slice(0, 15)}…`, masked: true })
    expect(list.map((k) => k.key)).toEqual(
      expect.arrayContaining(['sandbox-free', 'sandbox-enterprise', 'team-key-1']),
    )
    // The full key still works and can still be revoked.
    const used = await target.send({
      method: 'GET',
      path: '/pets',
      headers: { authorization: `Bearer ${created.key}` },
    })
    expect(used.status).toBe(200)
    await target.controls.revokeKey(created.key)
  })

  it('masks a chosen run-time key too, never showing more than half of it', async () => {
    await target.control('POST', '/keys', { plan: 'pro', key: 'chosen-secret-key' })
    const list = (await target.control('GET', '/keys')) as { key: string }[]
    expect(JSON.stringify(list)).not.toContain('chosen-secret-key')
    expect(list.map((k) => k.key)).toContain('chos…')
    await target.controls.reset()
  })
})
