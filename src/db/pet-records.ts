import type { NewPet, Pet, PetStatus } from '../contract/pet.js'

export interface PetPage {
  pets: Pet[]
  /** Pets matching the filter, on every page. */
  total: number
  /** The id to continue after, when more pets follow. */
  nextAfterId: number | undefined
}

export interface ListPetsQuery {
  status?: PetStatus | undefined
  afterId?: number | undefined
  /** Pets to skip instead (offset paging); `afterId` wins when both are given. */
  offset?: number | undefined
  limit: number
}

/**
 * What the operations need of the pets: the data seam. `PetStore` (memory)
 * implements it; a shared store may answer asynchronously.
 */
export interface PetRecords {
  get(id: number): Pet | undefined | Promise<Pet | undefined>
  list(query: ListPetsQuery): PetPage | Promise<PetPage>
  create(newPet: NewPet): Pet | Promise<Pet>
}
