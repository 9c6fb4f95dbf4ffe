import { describe, expect, it } from 'vitest'
import type { NewPet, Pet } from '../../src/contract/pet.js'
import { PetStore } from '../../src/db/pet-store.js'

const pet = (id: number, status: Pet['status'] = 'available'): Pet => ({
  id,
  name: `Pet ${id}`,
  categoryId: 1,
  status,
})
const newPet = (name: string, status: NewPet['status'] = 'available'): NewPet => ({
  name,
  categoryId: 2,
  status,
})
const idsOf = (pets: readonly Pet[]) => pets.map((p) => p.id)

/** Pages from the start to the end; returns the ids of every page. */
const pageAll = (store: PetStore, query: { limit: number; status?: Pet['status'] }) => {
  const pages: number[][] = []
  let afterId: number | undefined
  do {
    const page = store.list({ ...query, afterId })
    pages.push(idsOf(page.pets))
    afterId = page.nextAfterId
  } while (afterId !== undefined)
  return pages
}

describe('PetStore', () => {
  it('seeds 25 pets with ids 1 to 25 by default', async () => {
    const store = await PetStore.seeded()
    expect(store.count).toBe(25)
    expect(idsOf(store.list({ limit: 100 }).pets)).toEqual(
      Array.from({ length: 25 }, (_, i) => i + 1),
    )
    expect(store.get(25)?.id).toBe(25)
    expect(store.get(26)).toBeUndefined()
  })

  it('pages in ascending id order with the id to continue after', async () => {
    const store = await PetStore.seeded({ count: 7 })
    const first = store.list({ limit: 3 })
    expect(idsOf(first.pets)).toEqual([1, 2, 3])
    expect(first).toMatchObject({ total: 7, nextAfterId: 3 })
    expect(pageAll(store, { limit: 3 })).toEqual([[1, 2, 3], [4, 5, 6], [7]])
  })

  it('has no next position when the last page is exactly full', async () => {
    const store = await PetStore.seeded({ count: 6 })
    expect(pageAll(store, { limit: 3 })).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ])
    expect(store.list({ limit: 6 }).nextAfterId).toBeUndefined()
  })

  it('pages a status filter over that status only, counting only its pets', async () => {
    const store = new PetStore()
    await store.load({
      nextId: 1,
      pets: [pet(1, 'sold'), pet(2), pet(3, 'sold'), pet(5, 'pending'), pet(8, 'sold'), pet(9)],
    })
    expect(pageAll(store, { limit: 2, status: 'sold' })).toEqual([[1, 3], [8]])
    expect(store.list({ limit: 2, status: 'sold' }).total).toBe(3)
    expect(store.list({ limit: 2, status: 'pending' })).toMatchObject({
      total: 1,
      nextAfterId: undefined,
    })
    expect(store.list({ limit: 5, status: 'available', afterId: 2 }).pets.map((p) => p.id)).toEqual(
      [9],
    )
  })

  it('continues after a position that is not a pet of the filter', async () => {
    const store = await PetStore.seeded({ count: 10 })
    const sold = idsOf(store.list({ limit: 100, status: 'sold' }).pets)
    const after = 4
    expect(idsOf(store.list({ limit: 100, status: 'sold', afterId: after }).pets)).toEqual(
      sold.filter((id) => id > after),
    )
    expect(store.list({ limit: 5, afterId: 10 }).pets).toEqual([])
  })

  it('answers an empty page for an empty store', () => {
    expect(new PetStore().list({ limit: 20 })).toEqual({
      pets: [],
      total: 0,
      nextAfterId: undefined,
    })
  })

  it('gives concurrent creates distinct ascending ids', async () => {
    const store = await PetStore.seeded({ count: 3 })
    const created = await Promise.all(
      Array.from({ length: 50 }, (_, i) => store.create(newPet(`P${i}`))),
    )
    expect(created.map((p) => p.id)).toEqual(Array.from({ length: 50 }, (_, i) => i + 4))
    expect(store.count).toBe(53)
  })

  it('never reuses the id of a pet that is gone from a loaded snapshot', async () => {
    const store = new PetStore()
    await store.load({ nextId: 40, pets: [pet(1), pet(7)] })
    expect((await store.create(newPet('Next'))).id).toBe(40)
    await store.load({ nextId: 1, pets: [pet(12)] })
    expect((await store.create(newPet('After 12'))).id).toBe(13)
  })

  it('round-trips through snapshot and load', async () => {
    const store = await PetStore.seeded({ count: 5 })
    await store.create(newPet('Extra', 'sold'))
    const snapshot = store.snapshot()
    expect(snapshot.nextId).toBe(7)
    const copy = new PetStore()
    await copy.load(snapshot)
    expect(copy.snapshot()).toEqual(snapshot)
    expect(copy.list({ limit: 100, status: 'sold' })).toEqual(
      store.list({ limit: 100, status: 'sold' }),
    )
  })

  it('hands out a snapshot that later changes do not touch', async () => {
    const store = await PetStore.seeded({ count: 2 })
    const snapshot = store.snapshot()
    const first = snapshot.pets[0] as Pet
    first.name = 'Changed'
    expect(store.get(1)?.name).not.toBe('Changed')
    await store.create(newPet('Later'))
    expect(snapshot.pets).toHaveLength(2)
  })

  it('replaces, not merges, the content on load', async () => {
    const store = await PetStore.seeded({ count: 5 })
    await store.load({ nextId: 1, pets: [pet(3, 'pending')] })
    expect(store.count).toBe(1)
    expect(store.get(1)).toBeUndefined()
    expect(store.list({ limit: 10, status: 'available' }).total).toBe(0)
  })

  it('refuses a snapshot pet that breaks the Pet schema', async () => {
    const store = new PetStore()
    const bad = { id: 1, name: 'Rex', categoryId: 0, status: 'available' } as Pet
    await expect(store.load({ nextId: 1, pets: [bad] })).rejects.toThrow()
  })

  it('tells listeners about a create before create resolves', async () => {
    const store = new PetStore()
    const seen: string[] = []
    const unsubscribe = store.subscribe(async (change) => {
      await Promise.resolve()
      seen.push(`${change.type}:${change.pet.name}`)
    })
    await store.create(newPet('Rex'))
    expect(seen).toEqual(['create:Rex'])
    unsubscribe()
    await store.create(newPet('Bo'))
    expect(seen).toEqual(['create:Rex'])
  })

  it('keeps the @msw/data collection in step with the indexes', async () => {
    const store = await PetStore.seeded({ count: 4 })
    await store.create(newPet('Rex', 'sold'))
    const records = store.collection.findMany()
    const byId = (a: { id: number }, b: { id: number }) => a.id - b.id
    expect(records.map((p) => p.id).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5])
    // What the indexes answer (id map, all-ids list, per-status lists) is what the collection holds.
    expect(store.list({ limit: 100 }).pets).toEqual([...records].sort(byId))
    for (const status of ['available', 'pending', 'sold'] as const) {
      const indexed = store.list({ status, limit: 100 })
      const matching = records.filter((p) => p.status === status).sort(byId)
      expect(indexed.pets, status).toEqual(matching)
      expect(indexed.total, status).toBe(matching.length)
    }
    for (const record of records) expect(store.get(record.id)).toEqual(record)
    expect(store.get(6)).toBeUndefined()
  })
})
