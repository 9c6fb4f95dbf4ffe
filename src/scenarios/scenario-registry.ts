import { ApiError } from '../http/api-error.js'
import { listNames, quoteText } from '../http/quote-text.js'
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
  // A phase names a scenario registered before it (or with it) that is no timeline itself.
  const checkPhases = (scenario: Scenario): void => {
    const phases = scenario.timeline?.phases ?? []
    for (const { scenario: name } of phases) {
      const phase = scenarios.get(name)
      if (phase === undefined || phase.timeline !== undefined)
        throw new TypeError(
          `Failed to register scenario "${scenario.name}": its phase "${name}" is ${phase === undefined ? 'not a registered scenario' : 'a timeline itself'}. Register that scenario first, or name another.`,
        )
    }
  }
  const registry: ScenarioRegistry = {
    get: (name) => scenarios.get(name),
    require(name) {
      const scenario = scenarios.get(name)
      if (scenario !== undefined) return scenario
      throw new ApiError(
        'unknown_scenario',
        `Unknown scenario ${quoteText(name)}. Valid scenarios: ${listNames([...scenarios.keys()])}.`,
      )
    },
    list: () => [...scenarios.values()],
    register(scenario) {
      if (scenarios.has(scenario.name)) {
        throw new TypeError(
          `Failed to register scenario "${scenario.name}": that name is taken. Choose another name.`,
        )
      }
      if (!initial) checkPhases(scenario)
      scenarios.set(scenario.name, scenario)
    },
  }
  let initial = true
  const all = [...builtIns, ...extra]
  for (const scenario of all) registry.register(scenario)
  for (const scenario of all) checkPhases(scenario)
  initial = false
  return registry
}
