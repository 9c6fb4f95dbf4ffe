import { defineScenario, type Scenario } from 'petstore-sandbox'

/**
 * A scenario of your own: every seeded pet of one category is sold. It is
 * data (a store hook), so the sandbox's core needs no change: the scenario
 * gets a store of its own, built from the sandbox's seeded pets, and pets
 * created in it stay there.
 *
 * @example
 * const sandbox = setupSandbox({ scenarios: [createCategorySoldOutScenario(3)] })
 * // then: GET /v1/pets?__scenario=category-3-sold-out
 */
export const createCategorySoldOutScenario = (categoryId: number): Scenario =>
  defineScenario({
    name: `category-${categoryId}-sold-out`,
    description: `Every pet of category ${categoryId} is sold; the other pets are the seeded ones.`,
    store: ({ seededPets }) =>
      seededPets().map((pet) => (pet.categoryId === categoryId ? { ...pet, status: 'sold' } : pet)),
  })
