import { operationRemoved } from '../../operations/get-pet.js'
import { defineScenario } from '../define-scenario.js'

/** The day after the deprecated operation's removal. */
export const sunsetScenario = defineScenario({
  name: 'sunset',
  description:
    'getPet answers 410 operation_removed (with its Deprecation, Sunset and successor Link headers) as after 5 December 2030; listPets and createPet are the default.',
  respond: ({ operationId, settings }) =>
    operationId === 'getPet' ? operationRemoved(settings) : undefined,
})
