import { describe, expect, it } from 'vitest'
import type { Pet } from '../../src/contract/pet.js'
import { PetStore, seededSnapshot } from '../../src/db/pet-store.js'
import { seedPets } from '../../src/db/seed-pets.js'

describe('seededSnapshot', () => {
  it('is the seeded pets with ids 1..count and the next id after them', () => {
    const snapshot = seededSnapshot({ seed: 3, count: 10 })
    expect(snapshot.nextId).toBe(11)
    expect(snapshot.pets).toEqual(
      seedPets({ seed: 3, count: 10 }).map((p, i) => ({ id: i + 1, ...p })),
    )
  })

  it('is made once per seed and count (the same frozen object), so faker runs once', () => {
    const first = seededSnapshot({ seed: 4, count: 5 })
    expect(seededSnapshot({ seed: 4, count: 5 })).toBe(first)
    expect(seededSnapshot({ seed: 4, count: 6 })).not.toBe(first)
    expect(Object.isFrozen(first) && Object.isFrozen(first.pets)).toBe(true)
    expect(first.pets.every((pet) => Object.isFrozen(pet))).toBe(true)
    expect(() => {
      ;(first.pets as Pet[]).push({ id: 9, name: 'x', categoryId: 1, status: 'sold' })
    }).toThrow(TypeError)
  })

  it('keeps the four most recent seeds and counts', () => {
    const first = seededSnapshot({ seed: 100, count: 2 })
    for (const seed of [101, 102, 103, 104]) seededSnapshot({ seed, count: 2 })
    expect(seededSnapshot({ seed: 100, count: 2 })).not.toBe(first)
    expect(seededSnapshot({ seed: 100, count: 2 })).toEqual(first)
  })
})

describe('PetStore.load of a seeded snapshot (the bulk path)', () => {
  it('shares frozen records between the stores loaded from it, each store its own indexes', async () => {
    const snapshot = seededSnapshot({ seed: 5, count: 25 })
    const a = new PetStore()
    const b = new PetStore()
    await a.load(snapshot)
    await b.load(snapshot)
    expect(a.get(7)).toBe(b.get(7))
    expect(Object.isFrozen(a.get(7))).toBe(true)
    await a.create({ name: 'Only in a', categoryId: 1, status: 'sold' })
    expect(a.count).toBe(26)
    expect(b.count).toBe(25)
    expect(b.get(26)).toBeUndefined()
    expect((await b.create({ name: 'b', categoryId: 1, status: 'sold' })).id).toBe(26)
  })

  it('puts the records in the @msw/data collection, where its queries, update and delete work', async () => {
    const store = new PetStore()
    await store.load(seededSnapshot({ seed: 5, count: 25 }))
    expect(store.collection.count()).toBe(25)
    expect(store.collection.findFirst((q) => q.where({ id: 3 }))).toBe(store.get(3))
    expect(store.collection.findMany((q) => q.where({ status: 'sold' })).map((p) => p.id)).toEqual(
      store.list({ limit: 100, status: 'sold' }).pets.map((p) => p.id),
    )
    const updated = await store.collection.update((q) => q.where({ id: 3 }), {
      data(pet) {
        pet.name = 'Renamed'
      },
    })
    expect(updated?.name).toBe('Renamed')
    // The shared record is untouched: @msw/data replaces a record, it does not change it.
    expect(seededSnapshot({ seed: 5, count: 25 }).pets[2]?.name).not.toBe('Renamed')
    expect(store.get(3)?.name).not.toBe('Renamed')
    await store.collection.delete((q) => q.where({ id: 4 }))
    expect(store.collection.count()).toBe(24)
    expect(store.collection.findFirst((q) => q.where({ id: 4 }))).toBeUndefined()
  })

  it('reloads in place: the same content after changes, without faker', async () => {
    const store = await PetStore.seeded({ seed: 6, count: 30 })
    const before = store.snapshot()
    await store.create({ name: 'Extra', categoryId: 2, status: 'pending' })
    await store.load(seededSnapshot({ seed: 6, count: 30 }))
    expect(store.snapshot()).toEqual(before)
    expect(store.collection.count()).toBe(30)
  })

  it('validates other snapshots first and leaves the store as it was when one pet is bad', async () => {
    const store = await PetStore.seeded({ seed: 6, count: 3 })
    const good: Pet = { id: 8, name: 'Rex', categoryId: 1, status: 'sold' }
    const bad = { id: 9, name: 'Bo', categoryId: 0, status: 'sold' } as Pet
    await expect(store.load({ nextId: 1, pets: [good, bad] })).rejects.toThrow(
      /pet 1 of the snapshot: categoryId must be at least 1/,
    )
    expect(store.count).toBe(3)
    expect(store.get(8)).toBeUndefined()
  })

  it('drops unknown fields and indexes unsorted, duplicated ids once', async () => {
    const store = new PetStore()
    const pets = [
      { id: 5, name: 'E', categoryId: 1, status: 'sold', extra: true },
      { id: 2, name: 'B', categoryId: 1, status: 'available' },
      { id: 9, name: 'I', categoryId: 1, status: 'sold' },
    ] as Pet[]
    await store.load({ nextId: 3, pets })
    expect(store.list({ limit: 10 }).pets.map((p) => p.id)).toEqual([2, 5, 9])
    expect(store.list({ limit: 10, status: 'sold' }).pets.map((p) => p.id)).toEqual([5, 9])
    expect(store.get(5)).toEqual({ id: 5, name: 'E', categoryId: 1, status: 'sold' })
    expect((await store.create({ name: 'J', categoryId: 1, status: 'sold' })).id).toBe(10)
  })
})
