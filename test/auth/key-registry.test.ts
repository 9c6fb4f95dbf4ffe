import { describe, expect, it } from 'vitest'
import { createKeyRegistry, KeyOptionError } from '../../src/auth/key-registry.js'
import { PLAN_LIMITS } from '../../src/contract/plans.js'

describe('createKeyRegistry', () => {
  it('holds the four demo keys, one per plan, with the plan limits', () => {
    const keys = createKeyRegistry()
    expect(keys.list().map(({ key, plan, source }) => ({ key, plan, source }))).toEqual([
      { key: 'sandbox-free', plan: 'free', source: 'demo' },
      { key: 'sandbox-pro', plan: 'pro', source: 'demo' },
      { key: 'sandbox-business', plan: 'business', source: 'demo' },
      { key: 'sandbox-enterprise', plan: 'enterprise', source: 'demo' },
    ])
    expect(keys.lookup('sandbox-pro')?.limits).toEqual(PLAN_LIMITS.pro)
    expect(keys.lookup('sandbox-unknown')).toBeUndefined()
  })

  it('adds option keys by plan name or with custom enterprise limits', () => {
    const keys = createKeyRegistry({
      'my-key': 'pro',
      'big-co': { plan: 'enterprise', perMinute: 20_000 },
    })
    expect(keys.lookup('my-key')).toEqual({
      key: 'my-key',
      plan: 'pro',
      limits: PLAN_LIMITS.pro,
      source: 'options',
    })
    expect(keys.lookup('big-co')?.limits).toEqual({
      perMinute: 20_000,
      perDay: PLAN_LIMITS.enterprise.perDay,
    })
  })

  it('refuses custom limits on a non-enterprise key, whose plan limits are fixed', () => {
    expect(() => createKeyRegistry({ cheap: { plan: 'free', perMinute: 9_999 } })).toThrow(
      /only enterprise keys have custom limits/,
    )
    expect(() => createKeyRegistry().create({ plan: 'pro', perDay: 5 })).toThrow(
      /Failed to configure a new key: only enterprise keys/,
    )
  })

  it.each([
    ['an unknown plan', { k: 'gold' }, /unknown plan "gold"/],
    ['a key with a space', { 'two words': 'pro' }, /RFC 6750/],
    ['an empty key', { '': 'pro' }, /RFC 6750/],
    [
      'a zero limit',
      { k: { plan: 'enterprise', perMinute: 0 } },
      /perMinute must be a whole number/,
    ],
    [
      'a fractional limit',
      { k: { plan: 'enterprise', perDay: 1.5 } },
      /perDay must be a whole number/,
    ],
  ])('fails fast with a "Failed to" message for %s', (_, option, message) => {
    const create = () => createKeyRegistry(option as Parameters<typeof createKeyRegistry>[0])
    expect(create).toThrow(KeyOptionError)
    expect(create).toThrow(/^Failed to configure/)
    expect(create).toThrow(message)
  })

  it('creates random sk_sandbox_ keys at run time', () => {
    const keys = createKeyRegistry()
    const a = keys.create({ plan: 'business' })
    const b = keys.create({ plan: 'business' })
    expect(a.key).toMatch(/^sk_sandbox_[0-9a-f]{32}$/)
    expect(a.key).not.toBe(b.key)
    expect(a).toMatchObject({ plan: 'business', source: 'runtime' })
    expect(keys.lookup(a.key)).toEqual(a)
  })

  it('creates a chosen key and refuses to create it twice', () => {
    const keys = createKeyRegistry()
    keys.create({ plan: 'free', key: 'mine' })
    expect(() => keys.create({ plan: 'pro', key: 'mine' })).toThrow(/exists already/)
    expect(() => keys.create({ plan: 'pro', key: 'sandbox-free' })).toThrow(KeyOptionError)
  })

  it('revokes any key, demo keys included, and reports unknown ones', () => {
    const keys = createKeyRegistry({ mine: 'pro' })
    const runtime = keys.create({ plan: 'free' })
    expect(keys.revoke(runtime.key)).toBe(true)
    expect(keys.revoke('sandbox-free')).toBe(true)
    expect(keys.revoke('mine')).toBe(true)
    expect(keys.revoke('sandbox-free')).toBe(false)
    expect(keys.revoke('never-existed')).toBe(false)
    expect(keys.lookup('sandbox-free')).toBeUndefined()
    expect(keys.lookup('mine')).toBeUndefined()
  })

  it('resets to the demo and option keys, dropping run-time keys', () => {
    const keys = createKeyRegistry({ mine: 'pro' })
    const runtime = keys.create({ plan: 'free' })
    keys.revoke('sandbox-pro')
    keys.revoke('mine')
    keys.reset()
    expect(keys.lookup(runtime.key)).toBeUndefined()
    expect(keys.lookup('sandbox-pro')?.plan).toBe('pro')
    expect(keys.lookup('mine')?.source).toBe('options')
    expect(keys.list()).toHaveLength(5)
  })

  it('lets an option key replace a demo key of the same name', () => {
    const keys = createKeyRegistry({ 'sandbox-free': 'business' })
    expect(keys.lookup('sandbox-free')).toMatchObject({ plan: 'business', source: 'options' })
    expect(keys.list()).toHaveLength(4)
  })
})
