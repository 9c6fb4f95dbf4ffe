import { STALL_MS } from '../../faults/stall-after-headers.js'
import { defineScenario } from '../define-scenario.js'
import { readDelayParam } from '../read-delay-param.js'

/** Headers, then silence, then the connection is destroyed. */
export const stallAfterHeadersScenario = defineScenario({
  name: 'stall-after-headers',
  description:
    'The operation runs; the status line and headers are sent, then no byte for 30000 ms (__delay=MS, 0-30000), then the connection is destroyed.',
  fault: 'stall-after-headers',
  faultSetting: (ctx) => readDelayParam(ctx, STALL_MS),
})
