import { defineScenario } from '../define-scenario.js'
import { readBandwidthParam } from '../read-bandwidth-param.js'

/** The whole answer, its body trickling. */
export const slowBodyScenario = defineScenario({
  name: 'slow-body',
  description:
    'The whole answer, its body sent at 1024 bytes a second (__bandwidth=BYTES, 1-10000000), a chunk at least every 100 ms.',
  fault: 'slow-body',
  faultSetting: readBandwidthParam,
})
