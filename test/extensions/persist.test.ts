import { describe, expect, it, vi } from 'vitest'
import { type PersistStorage, persistSandbox } from '../../src/extensions/persist.js'
import { createSandbox } from '../../src/handlers/create-sandbox.js'

// persistSandbox against an in-memory Web Storage: what the browser entry's `persist: true` keeps.
const memoryStorage = (): PersistStorage & { items: Map<string, string> } => {
  const items = new Map<string, string>()
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  }
}

const NEW_PET = { name: 'Kept', categoryId: 2, status: 'sold' as const }

describe('persistSandbox', () => {
  it('restores created pets, run-time keys, revoked keys and the sticky scenario in a new sandbox', async () => {
    const storage = memoryStorage()
    const first = createSandbox()
    await persistSandbox(first, { storage })
    await first.db.pets.create(NEW_PET)
    first.keys.create({ plan: 'pro', key: 'my-pro-key' })
    first.keys.create({ plan: 'enterprise', key: 'big-co', perMinute: 7, perDay: 70 })
    first.keys.revoke('sandbox-free')
    first.scenario.set('empty')

    const second = createSandbox()
    await persistSandbox(second, { storage })
    expect(second.db.pets.get(26)).toEqual({ id: 26, ...NEW_PET })
    expect(second.db.pets.count).toBe(26)
    const keys = new Map(second.keys.list().map((k) => [k.key, k]))
    expect(keys.get('my-pro-key')).toMatchObject({ plan: 'pro', source: 'runtime' })
    expect(keys.get('big-co')?.limits).toEqual({ perMinute: 7, perDay: 70 })
    expect(second.keys.list().map((k) => k.key)).not.toContain('sandbox-free')
    expect(second.scenario.get()).toBe('empty')
    // Ids are never reused, even after a reload.
    expect((await second.db.pets.create(NEW_PET)).id).toBe(27)
  })

  it('wipes the kept data on reset and keeps saving afterwards', async () => {
    const storage = memoryStorage()
    const sandbox = createSandbox()
    const persistence = await persistSandbox(sandbox, { storage, key: 'k' })
    await sandbox.db.pets.create(NEW_PET)
    expect(storage.items.has('k')).toBe(true)
    await sandbox.reset()
    expect(storage.items.has('k')).toBe(false)
    expect(sandbox.db.pets.count).toBe(25)
    await sandbox.db.pets.create(NEW_PET)
    expect(JSON.parse(storage.items.get('k') ?? '{}').pets.pets).toHaveLength(26)
    persistence.wipe()
    expect(storage.items.has('k')).toBe(false)
  })

  it('drops kept data that does not parse, with a warning, and starts from the seeded pets', async () => {
    const storage = memoryStorage()
    storage.setItem('petstore-sandbox', '{"version":1,"pets":"nope"}')
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const sandbox = createSandbox()
    await persistSandbox(sandbox, { storage })
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('does not parse'))
    warn.mockRestore()
    expect(storage.items.has('petstore-sandbox')).toBe(false)
    expect(sandbox.db.pets.count).toBe(25)
  })

  it('drops kept pets that break the Pet schema instead of loading them', async () => {
    const storage = memoryStorage()
    const kept = {
      version: 1,
      pets: { nextId: 2, pets: [{ id: 1, name: 'x', categoryId: 0, status: 'sold' }] },
      scenario: 'default',
      keys: [],
      revoked: [],
    }
    storage.setItem('petstore-sandbox', JSON.stringify(kept))
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const sandbox = createSandbox()
    await persistSandbox(sandbox, { storage })
    warn.mockRestore()
    expect(sandbox.db.pets.count).toBe(25)
  })
})
