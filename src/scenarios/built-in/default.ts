import { defineScenario } from '../define-scenario.js'

/** The contract as production answers it. */
export const defaultScenario = defineScenario({
  name: 'default',
  description: 'The contract as production answers it: the seeded pets, real quotas, no faults.',
  // With an upstream, the default is the upstream's own answer.
  forwards: true,
})
