import { Collection } from '@msw/data'
import { LIMITS } from '../contract/limits.js'
import { type NewPet, PET_STATUSES, type Pet, PetSchema, type PetStatus } from '../contract/pet.js'
import { IdSpaceExhaustedError } from './id-space-exhausted-error.js'
import { PageCache } from './page-cache.js'
import { PET_JSON, petJsonOf } from './pet-json.js'
import type { ListPetsQuery, PetPage, PetRecords } from './pet-records.js'
import { DEFAULT_PET_COUNT, DEFAULT_SEED, forEachSeedPet, type SeedOptions } from './seed-pets.js'
import { SortedIds } from './sorted-ids.js'

export type { ListPetsQuery, PetPage } from './pet-records.js'

/** The whole content of a store, as a data file keeps it. */
export interface PetStoreSnapshot {
  /** The id the next created pet gets; ids are never reused. */
  nextId: number
  pets: Pet[]
}

/** What `load` takes: a snapshot, frozen ones (from `seededSnapshot`) included. */
export interface ReadonlyPetStoreSnapshot {
  readonly nextId: number
  readonly pets: readonly Readonly<Pet>[]
}

export type PetStoreListener = (change: { type: 'create'; pet: Pet }) => void | Promise<void>

/**
 * The symbols @msw/data marks a record with (its primary key and its
 * relations), learned once from a record it made, so that bulk loads can
 * build records without its per-record `create` (async, a schema pass, a
 * UUID and a Map each: ~7 s and ~1 GB for a million pets). `undefined` when
 * the installed @msw/data does not look as expected: loads then go through
 * `create`, slower but correct. See docs/decisions/0015-light-bulk-load.md.
 */
interface RecordMarks {
  primaryKey: symbol
  relations: symbol
}
let recordMarks: Promise<RecordMarks | undefined> | undefined
/** The marks once learnt (creates build records directly from then on); null when they cannot be. */
let knownMarks: RecordMarks | null | undefined
const learnRecordMarks = (): Promise<RecordMarks | undefined> => {
  recordMarks ??= (async () => {
    try {
      const probe = new Collection({ schema: PetSchema })
      const record = (await probe.create({
        id: 1,
        name: 'probe',
        categoryId: 1,
        status: 'available',
      })) as Pet & Record<symbol, unknown>
      const symbols = Object.getOwnPropertySymbols(record)
      const primaryKey = symbols.find((s) => typeof record[s] === 'string')
      const relations = symbols.find((s) => record[s] instanceof Map)
      // `all()` must be the collection's own array, which bulk loads fill.
      ;(probe.all() as unknown[]).push({ ...record })
      const live = probe.count() === 2
      if (symbols.length !== 2 || primaryKey === undefined || relations === undefined || !live)
        return undefined
      return { primaryKey, relations }
    } catch {
      return undefined
    }
  })().then((marks) => {
    knownMarks = marks ?? null
    return marks
  })
  return recordMarks
}

/**
 * One Map for the relations of every bulk-loaded record: the pets define no
 * relations, so @msw/data only ever reads it (one Map per record was ~100 bytes).
 */
const NO_RELATIONS: ReadonlyMap<string, unknown> = new Map()

// Reused for every record: a descriptor literal per property made bulk loads 1.5x slower.
const primaryKeyDescriptor: PropertyDescriptor = { value: 0 }
const relationsDescriptor: PropertyDescriptor = { value: NO_RELATIONS }
const jsonDescriptor: PropertyDescriptor = { value: '' }

/**
 * A record as @msw/data's `create` makes it (its two symbols, not
 * enumerable), frozen: stores loaded from the same snapshot share it
 * (@msw/data never changes a record in place; update and delete replace or
 * remove it). Its primary key is the pet's id.
 */
const toRecord = (pet: Readonly<Pet>, marks: RecordMarks, json?: string): Pet => {
  const record = { id: pet.id, name: pet.name, categoryId: pet.categoryId, status: pet.status }
  primaryKeyDescriptor.value = pet.id
  Object.defineProperty(record, marks.primaryKey, primaryKeyDescriptor)
  Object.defineProperty(record, marks.relations, relationsDescriptor)
  if (json !== undefined) {
    jsonDescriptor.value = json
    Object.defineProperty(record, PET_JSON, jsonDescriptor)
  }
  return Object.freeze(record)
}

/** A snapshot turned into what a store holds; made once per frozen snapshot and shared. */
interface LoadedPets {
  /** In the snapshot's order. */
  records: readonly Pet[]
  /** Whether the ids are exactly 1..n in order: then `records[id - 1]` is the pet, no map needed. */
  dense: boolean
  ids: readonly number[]
  idsByStatus: ReadonlyMap<PetStatus, readonly number[]>
  highestId: number
}

const loadPets = (pets: readonly Readonly<Pet>[], marks: RecordMarks): LoadedPets => {
  const records: Pet[] = new Array(pets.length)
  const ids: number[] = new Array(pets.length)
  const idsByStatus = new Map<PetStatus, number[]>(PET_STATUSES.map((s) => [s, []]))
  let dense = true
  let highestId = 0
  for (let i = 0; i < pets.length; i++) {
    const record = toRecord(pets[i] as Pet, marks)
    records[i] = record
    ids[i] = record.id
    idsByStatus.get(record.status)?.push(record.id)
    if (record.id !== i + 1) dense = false
    if (record.id > highestId) highestId = record.id
  }
  return { records, dense, ids, idsByStatus, highestId }
}

/** Loaded frozen snapshots, shared by every store loading them. */
const loadedSnapshots = new WeakMap<ReadonlyPetStoreSnapshot, LoadedPets>()
/** Snapshots this module made and froze: already valid, never changed. */
const trustedSnapshots = new WeakSet<ReadonlyPetStoreSnapshot>()

export interface SeededSnapshotOptions extends SeedOptions {
  /** Called about every 1% while faker runs (not on a cached snapshot): the CLI's progress line. */
  onProgress?: ((done: number, total: number) => void) | undefined
}

const SNAPSHOT_CACHE_SIZE = 4
const seededSnapshots = new Map<string, ReadonlyPetStoreSnapshot>()

/**
 * The seeded pets (ids 1..count) as a frozen snapshot, made once per seed and
 * count and cached (the 4 most recent), so `reset()` and new sessions never
 * run faker again: `new PetStore()` then `load(seededSnapshot(options))`.
 *
 * @example
 * const store = new PetStore()
 * await store.load(seededSnapshot({ seed: 1, count: 25 }))
 */
export const seededSnapshot = (options: SeededSnapshotOptions = {}): ReadonlyPetStoreSnapshot => {
  const seed = options.seed ?? DEFAULT_SEED
  const count = options.count ?? DEFAULT_PET_COUNT
  const key = `${seed}:${count}`
  const cached = seededSnapshots.get(key)
  if (cached !== undefined) {
    // Most recent last.
    seededSnapshots.delete(key)
    seededSnapshots.set(key, cached)
    return cached
  }
  const pets: Pet[] = new Array(count)
  const { onProgress } = options
  const step = Math.max(1, Math.ceil(count / 100))
  forEachSeedPet({ seed, count }, (name, categoryId, status, index) => {
    pets[index] = Object.freeze({ id: index + 1, name, categoryId, status })
    if (onProgress !== undefined && (index + 1) % step === 0) onProgress(index + 1, count)
  })
  const snapshot = Object.freeze({ nextId: count + 1, pets: Object.freeze(pets) })
  trustedSnapshots.add(snapshot)
  seededSnapshots.set(key, snapshot)
  for (const oldest of seededSnapshots.keys()) {
    if (seededSnapshots.size <= SNAPSHOT_CACHE_SIZE) break
    seededSnapshots.delete(oldest)
  }
  return snapshot
}

/** Each pet checked by the Pet schema (unknown fields dropped, as `create` does). */
const validatePets = (pets: readonly Readonly<Pet>[]): Pet[] =>
  pets.map((pet, index) => {
    const parsed = PetSchema.safeParse(pet)
    if (!parsed.success) {
      const problems = parsed.error.issues
        .map((i) => `${i.path.map(String).join('.')} ${i.message}`)
        .join('; ')
      throw new TypeError(`Cannot load pet ${index} of the snapshot: ${problems}`)
    }
    return parsed.data
  })

/**
 * The pets: an @msw/data collection (validated by the Pet schema) with an id
 * map and per-status sorted indexes beside it, because the collection's
 * queries scan, and `findMany` applies `take` before `orderBy`.
 * Speaks records and `undefined`; HTTP lives in src/handlers.
 * See docs/decisions/0001-collection-with-indexes.md.
 */
export class PetStore implements PetRecords {
  readonly collection = new Collection({ schema: PetSchema })
  /** Pets by id: a loaded dense snapshot's records (id = index + 1), and a map for the rest. */
  private base: readonly Pet[] = []
  private readonly byId = new Map<number, Pet>()
  private readonly all = new SortedIds()
  private readonly byStatus = new Map<PetStatus, SortedIds>(
    PET_STATUSES.map((s) => [s, new SortedIds()]),
  )
  private nextId = 1
  private readonly listeners = new Set<PetStoreListener>()
  /** Pages read since the last change, by query (emptied by every change). */
  private readonly pages = new PageCache()

  /** A store holding the seeded pets (ids 1..count), from the cached `seededSnapshot`. */
  static async seeded(options: SeedOptions = {}): Promise<PetStore> {
    const store = new PetStore()
    await store.load(seededSnapshot(options))
    return store
  }

  get count(): number {
    return this.all.size
  }

  get(id: number): Pet | undefined {
    return this.base[id - 1] ?? this.byId.get(id)
  }

  /**
   * A page; the same query answers the same page object until the store
   * changes, so a client polling a list costs neither a slice nor, in the
   * operation that serializes it, a new body (decision 0021).
   */
  list(query: ListPetsQuery): PetPage {
    return this.pages.get(query, this.read)
  }

  private readonly read = (query: ListPetsQuery): PetPage => this.readPage(query)

  private readPage(query: ListPetsQuery): PetPage {
    const index =
      query.status === undefined ? this.all : (this.byStatus.get(query.status) as SortedIds)
    const ids = index.slice(query.afterId, query.limit + 1, query.offset)
    const hasMore = ids.length > query.limit
    const pets = (hasMore ? ids.slice(0, query.limit) : ids).map((id) => this.get(id) as Pet)
    const last = pets[pets.length - 1]
    return {
      pets,
      total: index.size,
      nextAfterId: hasMore && last !== undefined ? last.id : undefined,
    }
  }

  /**
   * Creates a pet with the next id and tells the listeners (a data file, say)
   * before resolving. Synchronous when nothing needs waiting for (decision 0021).
   */
  create(newPet: NewPet): Pet | Promise<Pet> {
    const inserted = this.insert(newPet)
    if (inserted instanceof Promise) return inserted.then((pet) => this.tell(pet))
    return this.tell(inserted)
  }

  private tell(pet: Pet): Pet | Promise<Pet> {
    for (const listener of this.listeners) {
      const told = listener({ type: 'create', pet })
      // The first listener that waits makes the rest wait in turn.
      if (told instanceof Promise) return this.tellFrom(pet, told, listener)
    }
    return pet
  }

  private async tellFrom(pet: Pet, pending: Promise<void>, after: PetStoreListener): Promise<Pet> {
    await pending
    let started = false
    for (const listener of this.listeners) {
      if (started) await listener({ type: 'create', pet })
      else if (listener === after) started = true
    }
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

  /**
   * Replaces the content with a snapshot. Pets are checked by the Pet schema
   * first (a bad pet rejects and leaves the store as it was), except those of
   * a `seededSnapshot`, whose records are shared: loading one takes well under
   * a millisecond for 25 pets and no faker.
   */
  async load(snapshot: ReadonlyPetStoreSnapshot): Promise<void> {
    const trusted = trustedSnapshots.has(snapshot)
    const pets = trusted ? snapshot.pets : validatePets(snapshot.pets)
    const marks = await learnRecordMarks()
    if (marks === undefined) return this.loadOneByOne(snapshot.nextId, pets)
    let loaded = trusted ? loadedSnapshots.get(snapshot) : undefined
    if (loaded === undefined) {
      loaded = loadPets(pets, marks)
      if (trusted) loadedSnapshots.set(snapshot, loaded)
    }
    this.clear()
    const { records } = loaded
    // The collection's own array (checked by learnRecordMarks); its records are typed with its symbols.
    const stored = this.collection.all() as unknown as Pet[]
    // In slices: a spread of a million arguments overflows the stack.
    for (let at = 0; at < records.length; at += 8192) stored.push(...records.slice(at, at + 8192))
    if (loaded.dense) this.base = records
    else for (const record of records) this.byId.set(record.id, record)
    // Copies: each store's indexes grow with its own creates.
    this.all.replace(loaded.ids.slice())
    for (const [status, index] of this.byStatus)
      index.replace(loaded.idsByStatus.get(status)?.slice() ?? [])
    this.nextId = Math.max(loaded.highestId + 1, snapshot.nextId)
  }

  /** Empties the store; with no delete hooks on the collection, in O(1) (`clear()` is O(n²)). */
  private clear(): void {
    this.pages.clear()
    if (this.collection.hooks.listenerCount('delete') === 0) this.collection.all().length = 0
    else this.collection.clear()
    this.base = []
    this.byId.clear()
    this.all.clear()
    for (const index of this.byStatus.values()) index.clear()
    this.nextId = 1
  }

  /** The load of old: one `create` a pet, when @msw/data's records are not as expected. */
  private async loadOneByOne(nextId: number, pets: readonly Readonly<Pet>[]): Promise<void> {
    this.clear()
    for (const pet of pets) await this.add({ ...pet })
    this.nextId = Math.max(this.nextId, nextId)
  }

  private insert(newPet: NewPet): Pet | Promise<Pet> {
    // The id is taken synchronously, so concurrent creates never share one.
    if (this.nextId > LIMITS.maxId) return Promise.reject(new IdSpaceExhaustedError())
    const id = this.nextId++
    const pet: Pet = { id, name: newPet.name, categoryId: newPet.categoryId, status: newPet.status }
    // As a bulk load does (decision 0015): the record built directly, when @msw/data's
    // marks are known and nothing listens to the collection's own create hook.
    if (knownMarks && this.collection.hooks.listenerCount('create') === 0) {
      // Its JSON is needed at once (the 201), and kept with it (decision 0021).
      const record = toRecord(pet, knownMarks, petJsonOf(pet))
      ;(this.collection.all() as unknown as Pet[]).push(record)
      this.index(record)
      return record
    }
    return this.add(pet)
  }

  private async add(pet: Pet): Promise<Pet> {
    // The record itself is indexed (no copy): the store is the collection's only writer.
    const stored: Pet = await this.collection.create(pet)
    this.index(stored)
    return stored
  }

  private index(stored: Pet): void {
    // A create empties it: a C++ call each time, so only when there is something to drop.
    this.pages.clear()
    this.byId.set(stored.id, stored)
    this.all.insert(stored.id)
    this.byStatus.get(stored.status)?.insert(stored.id)
    if (stored.id >= this.nextId) this.nextId = stored.id + 1
  }
}
