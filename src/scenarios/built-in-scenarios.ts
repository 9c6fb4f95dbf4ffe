import { bannedScenario } from './built-in/banned.js'
import { commitThenDropScenario } from './built-in/commit-then-drop.js'
import { defaultScenario } from './built-in/default.js'
import { emptyScenario } from './built-in/empty.js'
import { emptyResponseScenario } from './built-in/empty-response.js'
import { createFlakyScenario, type FlakyOptions, flakyScenario } from './built-in/flaky.js'
import { malformedJsonScenario } from './built-in/malformed-json.js'
import { networkErrorScenario } from './built-in/network-error.js'
import { outageScenario } from './built-in/outage.js'
import { paginatedScenario } from './built-in/paginated.js'
import { proxyErrorScenario } from './built-in/proxy-error.js'
import { rateLimitedScenario } from './built-in/rate-limited.js'
import { resetMidBodyScenario } from './built-in/reset-mid-body.js'
import { serverErrorScenario } from './built-in/server-error.js'
import { slowScenario } from './built-in/slow.js'
import { slowBodyScenario } from './built-in/slow-body.js'
import { stallAfterHeadersScenario } from './built-in/stall-after-headers.js'
import { sunsetScenario } from './built-in/sunset.js'
import { timeoutScenario } from './built-in/timeout.js'
import { truncatedBodyScenario } from './built-in/truncated-body.js'
import { unauthorizedScenario } from './built-in/unauthorized.js'
import { unavailableScenario } from './built-in/unavailable.js'
import type { Scenario } from './define-scenario.js'

export interface BuiltInScenariosOptions {
  /** Share and seed of the built-in `flaky` scenario. */
  flaky?: Omit<FlakyOptions, 'name'> | undefined
}

/** The name of a built-in scenario: `'default' | 'empty' | … | 'flaky'`. */
export type BuiltInScenarioName = ReturnType<typeof builtInScenarios>[number]['name']

/**
 * A scenario name a sandbox knows: a built-in one, or one of the scenarios you
 * registered in its options (`S`, inferred from `scenarios`). A typo fails type checking.
 */
export type ScenarioName<S extends string = never> = BuiltInScenarioName | S

/**
 * The built-in scenarios in the order the README lists them, with `flaky`
 * configured by the sandbox's options.
 *
 * @example
 * builtInScenarios({ flaky: { rate: 0.5, seed: 7 } }).map((s) => s.name)
 */
export const builtInScenarios = (options: BuiltInScenariosOptions = {}) =>
  [
    defaultScenario,
    emptyScenario,
    paginatedScenario,
    rateLimitedScenario,
    bannedScenario,
    unauthorizedScenario,
    serverErrorScenario,
    unavailableScenario,
    slowScenario,
    timeoutScenario,
    networkErrorScenario,
    sunsetScenario,
    options.flaky === undefined
      ? flakyScenario
      : createFlakyScenario({ ...options.flaky, name: 'flaky' }),
    // Faults inside an answer (contract §19).
    resetMidBodyScenario,
    truncatedBodyScenario,
    stallAfterHeadersScenario,
    slowBodyScenario,
    malformedJsonScenario,
    proxyErrorScenario,
    emptyResponseScenario,
    commitThenDropScenario,
    outageScenario,
  ] as const satisfies readonly Scenario[]
