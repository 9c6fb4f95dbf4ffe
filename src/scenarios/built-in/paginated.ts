import { defineScenario } from '../define-scenario.js'

/** How many pets the `paginated` scenario holds. */
export const PAGINATED_PET_COUNT = 250

/** Enough pets to page through: 250 seeded pets in a store of its own. */
export const paginatedScenario = defineScenario({
  name: 'paginated',
  description:
    'A store of its own with 250 seeded pets (ids 1-250, the first ones equal to the default seeded pets), to page through with cursor links.',
  store: ({ seededPets }) => seededPets(PAGINATED_PET_COUNT),
})
