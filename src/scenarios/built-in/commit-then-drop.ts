import { defineScenario } from '../define-scenario.js'

/** The write happens; its answer is lost. */
export const commitThenDropScenario = defineScenario({
  name: 'commit-then-drop',
  description:
    'The operation runs and its effect stays (a created pet exists), then the connection fails as in network-error; the journal keeps the answer with delivered: false.',
  fault: 'commit-then-drop',
})
