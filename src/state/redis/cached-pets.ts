import type { Pet, PetStatus } from '../../contract/pet.js'
import { PageCache } from '../../db/page-cache.js'
import type { ListPetsQuery, PetPage } from '../../db/pet-records.js'

/** Position of the first pet with an id greater than `id` (pets in ascending id order). */
const firstAfter = (pets: readonly Pet[], id: number): number => {
  let low = 0
  let high = pets.length
  while (low < high) {
    const mid = (low + high) >>> 1
    if ((pets[mid] as Pet).id <= id) low = mid + 1
    else high = mid
  }
  return low
}

/**
 * An instance's copy of one store of a session: the seeded pets (computed in
 * the instance, the same in every instance) followed by the pets created in
 * Redis, in id order (the create script appends them in id order). Pets are
 * only ever appended, so keeping up is reading the list from `created` on.
 */
export class CachedPets {
  private readonly all: Pet[]
  private readonly byId = new Map<number, Pet>()
  private readonly byStatus = new Map<PetStatus, Pet[]>()
  /** Pages read since the last append, by query: the same query answers the same page object, as in memory (decision 0021). */
  private readonly pages = new PageCache()
  /** How many pets of the Redis list this copy holds. */
  created = 0
  /** The session's pets version this copy is current with. */
  version: string | undefined

  constructor(seeded: readonly Pet[]) {
    this.all = []
    this.append(seeded)
    this.created = 0
  }

  get count(): number {
    return this.all.length
  }

  /** Adds pets read from Redis (ascending ids, above every id held). */
  append(pets: readonly Pet[]): void {
    if (pets.length > 0) this.pages.clear()
    for (const pet of pets) {
      this.all.push(pet)
      this.byId.set(pet.id, pet)
      let list = this.byStatus.get(pet.status)
      if (list === undefined) {
        list = []
        this.byStatus.set(pet.status, list)
      }
      list.push(pet)
    }
    this.created += pets.length
  }

  get(id: number): Pet | undefined {
    return this.byId.get(id)
  }

  list(query: ListPetsQuery): PetPage {
    return this.pages.get(query, this.read)
  }

  private readonly read = (query: ListPetsQuery): PetPage => this.readPage(query)

  private readPage(query: ListPetsQuery): PetPage {
    const index = query.status === undefined ? this.all : (this.byStatus.get(query.status) ?? [])
    const start =
      query.afterId === undefined ? (query.offset ?? 0) : firstAfter(index, query.afterId)
    const slice = index.slice(start, start + query.limit + 1)
    const hasMore = slice.length > query.limit
    const pets = hasMore ? slice.slice(0, query.limit) : slice
    const last = pets[pets.length - 1]
    return {
      pets,
      total: index.length,
      nextAfterId: hasMore && last !== undefined ? last.id : undefined,
    }
  }
}
