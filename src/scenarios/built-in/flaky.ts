import { ApiError } from '../../http/api-error.js'
import { defineScenario, type Scenario } from '../define-scenario.js'

/** The share of failing requests of the built-in `flaky` scenario. */
export const DEFAULT_FLAKY_RATE = 0.3

export interface FlakyOptions<Name extends string = string> {
  /** Share of requests that fail, from 0 to 1 (default 0.3). */
  rate?: number | undefined
  /** Seed of the failure pattern (default: the sandbox's `seed`). */
  seed?: number | undefined
  /** Scenario name (default `flaky`); give another to register a second flaky scenario. */
  name?: Name | undefined
}

const unavailable = (name: string): ApiError =>
  new ApiError(
    'service_unavailable',
    `The service failed this request (forced by the "${name}" scenario). Retry after the time given in the Retry-After header.`,
    { headers: { 'Retry-After': '1' } },
  )

/**
 * A scenario in which a seeded share of requests fail: each request draws one
 * number r from the scenario's stream; r < rate/2 fails the connection,
 * rate/2 <= r < rate answers 503 `service_unavailable` (Retry-After: 1), and
 * the rest are the default answer on the default store. A failed request does
 * not reach the operation. The same seed and request order give the same pattern.
 *
 * @example
 * createSandbox({ scenarios: [createFlakyScenario({ name: 'very-flaky', rate: 0.8, seed: 7 })] })
 */
export const createFlakyScenario = <const Name extends string = 'flaky'>(
  options: FlakyOptions<Name> = {},
): Scenario<Name> => {
  // Without a name the scenario is `flaky`, which is what Name defaults to.
  const name = options.name ?? ('flaky' as Name)
  const rate = options.rate ?? DEFAULT_FLAKY_RATE
  if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1)) {
    throw new TypeError(
      `Failed to create the flaky scenario "${name}": rate must be a number from 0 to 1, got ${String(rate)}.`,
    )
  }
  const percent = `${Math.round(rate * 1000) / 10}%`
  return defineScenario({
    name,
    description: `A seeded ${percent} of requests fail, half as a failed connection and half as 503 service_unavailable (Retry-After: 1); the rest are the default answers. Reproducible after reset.`,
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    // With an upstream, the seeded share fails here and the rest is forwarded.
    forwards: true,
    respond: ({ random }) => {
      const draw = random()
      if (draw >= rate) return undefined
      if (draw < rate / 2) return { ...unavailable(name).toResponse(), fault: 'network-error' }
      return unavailable(name)
    },
  })
}

/** The built-in `flaky` scenario: 30% of requests fail, seeded by the sandbox's seed. */
export const flakyScenario = createFlakyScenario()
