import type { KeyOption } from '../auth/key-registry.js'
import type { OwnHandler } from '../handlers/check-own-handlers.js'
import type { RateLimitOptions } from '../rate-limit/rate-limit-options.js'
import type { BuiltInScenarioName } from '../scenarios/built-in-scenarios.js'
import type { Scenario } from '../scenarios/define-scenario.js'

/**
 * What a config file holds (`petstore-sandbox --config FILE`): every flag in
 * camelCase, the settings only a file can hold, and, in a `.js`/`.mjs` (or
 * TypeScript) file, your own `handlers` and `scenarios`. The CLI checks the
 * file against the same rules at start.
 */
export interface SandboxConfig<S extends string = never> {
  /** Editors use it for completion; the sandbox ignores it. */
  $schema?: string
  port?: number
  host?: string
  seed?: number
  pets?: number
  /** The sticky scenario at start and after a reset: a built-in one or one of `scenarios`. */
  scenario?: BuiltInScenarioName | NoInfer<S>
  /** Extra keys; a key's `scenario` is a built-in one or one of `scenarios`. */
  keys?: Record<string, KeyOption<BuiltInScenarioName | NoInfer<S>>>
  /** The data file, relative to the config file's folder. */
  data?: string
  adminToken?: string
  allowedHosts?: string[]
  basePath?: string
  quiet?: boolean
  /** `90` (seconds), `'90s'`, `'30m'`, `'2h'`, `'1500ms'`. */
  sessionTtl?: string | number
  maxSessions?: number
  store?: string
  storePrefix?: string
  rateLimit?: RateLimitOptions
  flaky?: { rate?: number; seed?: number }
  /** How many requests each session's journal keeps (default 500). */
  journalSize?: number
  /** How many requests every session's journal keeps together (default 10,000; 0 keeps none). */
  journalMaxEntries?: number
  /** About how many bytes every session's journal keeps together (default 33,554,432: 32 MiB). */
  journalMaxBytes?: number
  /**
   * Your own handlers, for paths the contract does not define, under the base
   * path and outside it: MSW handlers, or functions `(request) => Response | undefined`.
   */
  handlers?: readonly OwnHandler[]
  /** Your own scenarios (`defineScenario`), usable like the built-in ones. */
  scenarios?: readonly Scenario<S>[]
}

/**
 * Types a config file and infers its scenario names, so that `scenario` takes
 * only a built-in name or one of yours. Returns the config as it is.
 *
 * @example
 * // petstore-sandbox.config.mjs
 * import { defineConfig, defineScenario } from 'petstore-sandbox/server'
 * const maintenance = defineScenario({ name: 'maintenance', description: 'Writes answer 503.' })
 * export default defineConfig({ scenarios: [maintenance], scenario: 'maintenance' })
 */
export const defineConfig = <const S extends string = never>(
  config: SandboxConfig<S>,
): SandboxConfig<S> => config
