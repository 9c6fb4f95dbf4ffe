import { defineScenario } from '../define-scenario.js'

/** No pets: its own store starts empty, so created pets never reach the default store. */
export const emptyScenario = defineScenario({
  name: 'empty',
  description:
    'No pets: listPets answers [] and getPet 404; createPet works on a scratch store of its own (ids from 1), emptied again by reset.',
  store: () => [],
})
