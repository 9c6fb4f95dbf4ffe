import { base, en, Faker, SimpleFaker } from '@faker-js/faker'
import { describe, expect, it } from 'vitest'
import { SEED_PET_NAMES, SeedFaker } from '../../src/db/seed-faker.js'
import { SEED_CATEGORY_COUNT, seedPets } from '../../src/db/seed-pets.js'

describe('the seed faker (a private SimpleFaker over the English pet names)', () => {
  it('is faker’s SimpleFaker, the class the published build imports, and holds the English pet names', () => {
    expect(SeedFaker).toBe(SimpleFaker)
    expect(SEED_PET_NAMES).toEqual(en.animal?.pet_name)
  })

  for (const seed of [1, 2, 7, 42, 20301205, 987654321]) {
    it(`seeds the same pets as a faker over the whole en locale (seed ${seed})`, () => {
      const full = new Faker({ locale: [en, base], seed })
      const expected = Array.from({ length: 300 }, () => ({
        name: full.animal.petName(),
        categoryId: full.number.int({ min: 1, max: SEED_CATEGORY_COUNT }),
      }))
      expect(
        seedPets({ seed, count: 300 }).map(({ name, categoryId }) => ({ name, categoryId })),
      ).toEqual(expected)
    })
  }
})
