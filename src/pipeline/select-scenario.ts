import { singleParam } from '../http/query.js'
import { readHeaderText } from '../http/read-header-text.js'
import type { UrlFields } from '../http/request-url.js'
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
  url: UrlFields,
  headers: SandboxRequest['headers'],
  sticky: string,
): string =>
  singleParam(url.searchParams, '__scenario') ?? headers['x-sandbox-scenario']?.trim() ?? sticky

/**
 * Stage 5: the scenario that answers; 400 `unknown_scenario` listing the valid names.
 * A name the registry lacks is read again as the client wrote it (a header's
 * UTF-8 bytes arrive one character per byte), so `X-Sandbox-Scenario: ✓` is
 * named `"✓"` in the message, not `"â"`: the error path only.
 *
 * @example
 * const scenario = selectScenario(scenarios, 'slow')
 */
export const selectScenario = (scenarios: ScenarioRegistry, name: string): Scenario => {
  try {
    return scenarios.require(name)
  } catch (error) {
    const written = readHeaderText(name)
    if (written === name) throw error
    return scenarios.require(written)
  }
}
