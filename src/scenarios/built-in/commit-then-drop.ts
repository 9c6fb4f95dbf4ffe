import { DROP_ENDS } from '../../faults/commit-then-drop.js'
import { defineScenario } from '../define-scenario.js'
import { readChoiceParam } from '../read-choice-param.js'

/** The write happens; its answer is lost. */
export const commitThenDropScenario = defineScenario({
  name: 'commit-then-drop',
  description:
    'The operation runs and its effect stays (a created pet exists), then the connection fails as in network-error: a clean close, or a reset with __drop=reset; the journal keeps the answer with delivered: false.',
  fault: 'commit-then-drop',
  faultSetting: (ctx) => readChoiceParam(ctx, '__drop', DROP_ENDS),
})
