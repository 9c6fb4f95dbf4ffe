import { ApiError } from '../http/api-error.js'
import { builtInScenarios } from './built-in-scenarios.js'
import type { Scenario } from './define-scenario.js'

export interface ScenarioRegistry {
  get(name: string): Scenario | undefined
  /** The scenario of that name; 400 `unknown_scenario`, naming the valid ones, for another name. */
  require(name: string): Scenario
  list(): Scenario[]
  register(scenario: Scenario): void
}

/** The built-in scenarios, as configured by default. */
export const BUILT_IN_SCENARIOS: readonly Scenario[] = builtInScenarios()

/**
 * A registry holding the built-in scenarios (by default `BUILT_IN_SCENARIOS`)
 * and the user's own.
 *
 * @example
 * const registry = createScenarioRegistry([maintenance])
 * registry.get('maintenance')
 */
export const createScenarioRegistry = (
  extra: readonly Scenario[] = [],
  builtIns: readonly Scenario[] = BUILT_IN_SCENARIOS,
): ScenarioRegistry => {
  const scenarios = new Map<string, Scenario>()
  const registry: ScenarioRegistry = {
    get: (name) => scenarios.get(name),
    require(name) {
      const scenario = scenarios.get(name)
      if (scenario !== undefined) return scenario
      throw new ApiError(
        'unknown_scenario',
        `Unknown scenario "${name}". Valid scenarios: ${[...scenarios.keys()].join(', ')}.`,
      )
    },
    list: () => [...scenarios.values()],
    register(scenario) {
      if (scenarios.has(scenario.name)) {
        throw new TypeError(
          `Failed to register scenario "${scenario.name}": that name is taken. Choose another name.`,
        )
      }
      scenarios.set(scenario.name, scenario)
    },
  }
  for (const scenario of [...builtIns, ...extra]) registry.register(scenario)
  return registry
}
