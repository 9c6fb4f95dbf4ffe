import { Collection } from '@msw/data'
import { LIMITS } from '../contract/limits.js'
import { type NewPet, PET_STATUSES, type Pet, PetSchema, type PetStatus } from '../contract/pet.js'
import { IdSpaceExhaustedError } from './id-space-exhausted-error.js'
import type { ListPetsQuery, PetPage, PetRecords } from './pet-records.js'
import { type SeedOptions, seedPets } from './seed-pets.js'
import { SortedIds } from './sorted-ids.js'

export type { ListPetsQuery, PetPage } from './pet-records.js'

/** The whole content of a store, as a data file keeps it. */
export interface PetStoreSnapshot {
  /** The id the next created pet gets; ids are never reused. */
  nextId: number
  pets: Pet[]
}

export type PetStoreListener = (change: { type: 'create'; pet: Pet }) => void | Promise<void>

/**
 * The pets: an @msw/data collection (validated by the Pet schema) with an id
 * map and per-status sorted indexes beside it, because the collection's
 * queries scan, and `findMany` applies `take` before `orderBy`.
 * Speaks records and `undefined`; HTTP lives in src/handlers.
 * See docs/decisions/0001-collection-with-indexes.md.
 */
export class PetStore implements PetRecords {
  readonly collection = new Collection({ schema: PetSchema })
  private readonly byId = new Map<number, Pet>()
  private readonly all = new SortedIds()
  private readonly byStatus = new Map<PetStatus, SortedIds>(
    PET_STATUSES.map((s) => [s, new SortedIds()]),
  )
  private nextId = 1
  private readonly listeners = new Set<PetStoreListener>()

  /** A store holding the seeded pets (ids 1..count). */
  static async seeded(options: SeedOptions = {}): Promise<PetStore> {
    const store = new PetStore()
    await store.load({ nextId: 1, pets: [] })
    for (const pet of seedPets(options)) await store.insert(pet)
    return store
  }

  get count(): number {
    return this.all.size
  }

  get(id: number): Pet | undefined {
    return this.byId.get(id)
  }

  list(query: ListPetsQuery): PetPage {
    const index =
      query.status === undefined ? this.all : (this.byStatus.get(query.status) as SortedIds)
    const ids = index.slice(query.afterId, query.limit + 1)
    const hasMore = ids.length > query.limit
    const pets = (hasMore ? ids.slice(0, query.limit) : ids).map((id) => this.byId.get(id) as Pet)
    const last = pets[pets.length - 1]
    return {
      pets,
      total: index.size,
      nextAfterId: hasMore && last !== undefined ? last.id : undefined,
    }
  }

  /** Creates a pet with the next id and tells the listeners (a data file, say) before resolving. */
  async create(newPet: NewPet): Promise<Pet> {
    const pet = await this.insert(newPet)
    for (const listener of this.listeners) await listener({ type: 'create', pet })
    return pet
  }

  /** Calls `listener` after every change; returns a function that removes it. */
  subscribe(listener: PetStoreListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  snapshot(): PetStoreSnapshot {
    return {
      nextId: this.nextId,
      pets: this.list({ limit: this.count }).pets.map((p) => ({ ...p })),
    }
  }

  /** Replaces the content with a snapshot (validated by the Pet schema). */
  async load(snapshot: PetStoreSnapshot): Promise<void> {
    this.collection.clear()
    this.byId.clear()
    this.all.clear()
    for (const index of this.byStatus.values()) index.clear()
    this.nextId = 1
    for (const pet of snapshot.pets) await this.add(pet)
    this.nextId = Math.max(this.nextId, snapshot.nextId)
  }

  private insert(newPet: NewPet): Promise<Pet> {
    // The id is taken synchronously, so concurrent creates never share one.
    if (this.nextId > LIMITS.maxId) return Promise.reject(new IdSpaceExhaustedError())
    const id = this.nextId++
    return this.add({ id, ...newPet })
  }

  private async add(pet: Pet): Promise<Pet> {
    // The record itself is indexed (no copy): the store is the collection's only writer.
    const stored: Pet = await this.collection.create(pet)
    this.byId.set(stored.id, stored)
    this.all.insert(stored.id)
    this.byStatus.get(stored.status)?.insert(stored.id)
    if (stored.id >= this.nextId) this.nextId = stored.id + 1
    return stored
  }
}
