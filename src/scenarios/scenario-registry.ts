import { defaultScenario } from './built-in/default.js'
import type { Scenario } from './define-scenario.js'

export interface ScenarioRegistry {
  get(name: string): Scenario | undefined
  list(): Scenario[]
  register(scenario: Scenario): void
}

/** The built-in scenarios. */
export const BUILT_IN_SCENARIOS: readonly Scenario[] = [defaultScenario]

/** A registry holding the built-in scenarios and the user's own. */
export const createScenarioRegistry = (extra: readonly Scenario[] = []): ScenarioRegistry => {
  const scenarios = new Map<string, Scenario>()
  const registry: ScenarioRegistry = {
    get: (name) => scenarios.get(name),
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
  for (const scenario of [...BUILT_IN_SCENARIOS, ...extra]) registry.register(scenario)
  return registry
}
