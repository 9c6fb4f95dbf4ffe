import { defineScenario } from '../define-scenario.js'

/** The answer's JSON cut at its middle. */
export const malformedJsonScenario = defineScenario({
  name: 'malformed-json',
  description:
    'The operation runs; its status and headers come with Content-Type: application/json and the JSON body cut at its middle (not valid JSON).',
  fault: 'malformed-json',
})
