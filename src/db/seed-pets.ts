import { type NewPet, PET_STATUSES, type PetStatus } from '../contract/pet.js'
import { FakerClass, SEED_LOCALE } from './seed-faker.js'

export const DEFAULT_SEED = 20301205
export const DEFAULT_PET_COUNT = 25
/** Seeded pets use categories 1 to 5. */
export const SEED_CATEGORY_COUNT = 5

export interface SeedOptions {
  seed?: number
  count?: number
}

/**
 * The seeded pets: the same seed gives the same pets on every run and machine.
 * Statuses cycle through every value so each status is present in any 3
 * consecutive pets; names and categories come from a seeded faker.
 *
 * @example
 * seedPets({ seed: 1, count: 3 }) // three NewPet values, always the same
 */
export const seedPets = (options: SeedOptions = {}): NewPet[] => {
  const pets: NewPet[] = []
  forEachSeedPet(options, (name, categoryId, status) => {
    pets.push({ name, categoryId, status })
  })
  return pets
}

/**
 * The seeded pets one by one, in id order, without building them: the bulk
 * path of `seededSnapshot`, which makes its own records.
 */
export const forEachSeedPet = (
  options: SeedOptions,
  each: (name: string, categoryId: number, status: PetStatus, index: number) => void,
): void => {
  const seed = options.seed ?? DEFAULT_SEED
  const count = options.count ?? DEFAULT_PET_COUNT
  // A private instance over the definitions the seed uses, so seeding never
  // disturbs a user's own faker (src/db/seed-faker.ts).
  const faker = new FakerClass({ locale: SEED_LOCALE, seed })
  const category = { min: 1, max: SEED_CATEGORY_COUNT }
  for (let index = 0; index < count; index++) {
    each(
      faker.animal.petName(),
      faker.number.int(category),
      PET_STATUSES[index % PET_STATUSES.length] ?? 'available',
      index,
    )
  }
}
