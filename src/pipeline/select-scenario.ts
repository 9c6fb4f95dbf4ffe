import { singleParam } from '../http/query.js'
import type { SandboxRequest } from '../http/types.js'
import type { Scenario } from '../scenarios/define-scenario.js'
import type { ScenarioRegistry } from '../scenarios/scenario-registry.js'

/**
 * The scenario a request names: the `__scenario` flag, else the
 * `X-Sandbox-Scenario` header, else the session's sticky one.
 *
 * @example
 * scenarioName(url, request.headers, 'default') // 'slow' for ?__scenario=slow
 */
export const scenarioName = (
  url: URL,
  headers: SandboxRequest['headers'],
  sticky: string,
): string =>
  singleParam(url.searchParams, '__scenario') ?? headers['x-sandbox-scenario']?.trim() ?? sticky

/**
 * Stage 5: the scenario that answers; 400 `unknown_scenario` listing the valid names.
 *
 * @example
 * const scenario = selectScenario(scenarios, 'slow')
 */
export const selectScenario = (scenarios: ScenarioRegistry, name: string): Scenario =>
  scenarios.require(name)
