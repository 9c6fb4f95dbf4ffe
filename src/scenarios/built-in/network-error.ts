import { defineScenario } from '../define-scenario.js'

/** The connection fails at once. */
export const networkErrorScenario = defineScenario({
  name: 'network-error',
  description:
    'The connection fails at once (fetch rejects); the operation does not run, nothing is read or written.',
  fault: 'network-error',
})
