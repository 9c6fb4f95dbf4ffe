import { type NewPet, PET_STATUSES, type PetStatus } from '../contract/pet.js'
import { SEED_PET_NAMES, SEED_PRESET, SeedFaker } from './seed-faker.js'

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
 * Whether seeding `count` pets of `seed` runs faker: false when the build's
 * preset holds them (the published package's default seed, up to the
 * `paginated` scenario's 250 pets).
 */
export const seedNeedsFaker = (seed: number, count: number): boolean =>
  !(SEED_PRESET?.seed === seed && count <= SEED_PRESET.pets.length)

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
  const status = (index: number): PetStatus =>
    PET_STATUSES[index % PET_STATUSES.length] ?? 'available'
  // The same pets, computed when the package was built (the published CLI's only).
  if (SEED_PRESET !== undefined && !seedNeedsFaker(seed, count)) {
    for (let index = 0; index < count; index++) {
      const [name, categoryId] = SEED_PRESET.pets[index] as readonly [string, number]
      each(name, categoryId, status(index), index)
    }
    return
  }
  // A private instance, so seeding never disturbs a user's own faker; the names are
  // picked as `animal.petName()` picks them (src/db/seed-faker.ts).
  const faker = new SeedFaker({ seed })
  const category = { min: 1, max: SEED_CATEGORY_COUNT }
  for (let index = 0; index < count; index++) {
    each(
      faker.helpers.arrayElement(SEED_PET_NAMES),
      faker.number.int(category),
      status(index),
      index,
    )
  }
}
