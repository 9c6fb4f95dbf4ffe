import { defineScenario } from '../define-scenario.js'

/** An incident over time: normal, then down, then throttled, then recovered. */
export const outageScenario = defineScenario({
  name: 'outage',
  description:
    'A timeline on the sandbox clock: 60 s default, 120 s unavailable (503), 60 s rate-limited (429), then default for good.',
  timeline: {
    phases: [
      { scenario: 'default', forMs: 60_000 },
      { scenario: 'unavailable', forMs: 120_000 },
      { scenario: 'rate-limited', forMs: 60_000 },
      { scenario: 'default', forMs: 1 },
    ],
  },
})
