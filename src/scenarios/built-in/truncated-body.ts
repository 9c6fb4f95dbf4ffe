import { defineScenario } from '../define-scenario.js'

/** Half a body under the whole body's Content-Length, then a clean close. */
export const truncatedBodyScenario = defineScenario({
  name: 'truncated-body',
  description:
    "The operation runs; its answer's headers carry the whole body's Content-Length, half the body follows, then a clean close.",
  fault: 'truncated-body',
})
