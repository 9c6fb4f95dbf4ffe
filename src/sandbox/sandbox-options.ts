import type { KeyOption } from '../auth/key-registry.js'
import { FIDELITY_SETTING_NAMES, type FidelitySettings } from '../contract/fidelity.js'
import type { OpenApiSource } from '../openapi/openapi-document.js'
import type { RateLimitOptions } from '../rate-limit/rate-limit-options.js'
import type { RateLimiter } from '../rate-limit/rate-limiter.js'
import type { ScenarioName } from '../scenarios/built-in-scenarios.js'
import type { Scenario } from '../scenarios/define-scenario.js'
import type { StoreOption } from '../state/shared-store.js'
import type { UpstreamOptions } from '../upstream/upstream-options.js'
import type { TimelineSetting } from './resolve-sticky.js'

/**
 * Options of `createSandbox`. Every one is optional. `S` is the names of your
 * own `scenarios`, inferred from them, so that `scenario` and
 * `sandbox.scenario.set()` take only a known name. The fidelity settings of
 * contract §16 (`limitOutOfRange`, `unknownStatusFilter`, `defaultStatus`,
 * `nameMaxLength`, `unknownFields`, `pagination`, `totalCountHeader`,
 * `errorCodes`, `maxBodyBytes`) make the sandbox answer like a given
 * deployment where the spec is silent; `petstore-sandbox verify --emit-config`
 * writes them. Their defaults are the contract's guesses.
 */
export interface SandboxOptions<S extends string = never> extends Partial<FidelitySettings> {
  /**
   * Where the API lives. A path (default `/v1`) matches any origin whose path
   * starts with it, so production, staging and relative URLs are all
   * intercepted; a full URL such as `https://api.example.test/v1` restricts the
   * handlers to that origin.
   */
  baseUrl?: string
  /** Faker seed of the seeded pets (default 20301205). */
  seed?: number
  /** How many pets to seed (default 25; ids 1..pets). */
  pets?: number
  /**
   * Extra API keys: `{ 'my-key': 'pro' }` or `{ 'big-co': { plan: 'enterprise', perMinute: 20_000 } }`;
   * `{ plan, scenario }` for a key whose requests get that scenario (a built-in name or one of
   * `scenarios`). A key starting with `sandbox-scenario-` is refused: those are the scenario keys.
   */
  keys?: Record<string, KeyOption<ScenarioName<NoInfer<S>>>>
  /**
   * The sticky scenario at start and after reset (default `default`): a
   * built-in name or one of `scenarios`, or a timeline
   * (`{ timeline: [{ scenario, forMs }], repeat }`), which runs from each
   * session's start and restarts with its reset.
   */
  scenario?: ScenarioName<NoInfer<S>> | TimelineSetting
  /** Your own scenarios (`defineScenario`), next to the built-in ones. */
  scenarios?: readonly Scenario<S>[]
  /**
   * The built-in `flaky` scenario: the share of requests that fail (default
   * 0.3) and the seed of their pattern (default `seed`).
   */
  flaky?: { rate?: number; seed?: number }
  /**
   * Bans of keys that keep sending while limited: `{ banAfter: 20, banMinutes: 15 }`
   * by default (more than 20 rejected requests within a window ban the key for
   * 15 minutes). Quotas come from each key's plan.
   */
  rateLimit?: RateLimitOptions
  /**
   * @internal Replaces the rate limiter, so the benchmark can measure the
   * pipeline without one. Not part of the public API; may change at any time.
   */
  limiter?: RateLimiter
  /** Time source of the sandbox clock (default `Date.now`). */
  now?: () => number
  /** How many requests each session's journal keeps (default 500). */
  journalSize?: number
  /**
   * How many requests every session's journal keeps together (default 10,000):
   * the server-wide bound, whatever the number of sessions (oldest go first).
   */
  journalMaxEntries?: number
  /**
   * About how many bytes every session's journal keeps together (default 32 MiB;
   * each entry holds at most 100 header lines of 2,048 characters and 8 KiB of each body).
   */
  journalMaxBytes?: number
  /** When getPet was deprecated, for its `Deprecation` header (default 2026-01-01T00:00:00Z). */
  deprecatedAt?: Date | string
  /** When getPet is removed and starts answering 410 (default 2030-12-05T00:00:00Z, the spec's date). */
  sunsetAt?: Date | string
  /** Called with programming errors behind a 500 `internal_error` (default console.error). */
  onError?: (error: unknown) => void
  /** Idle time after which a session other than `default` is dropped, in ms (default 3,600,000: an hour). */
  sessionTtlMs?: number
  /** Most sessions alive at once, `default` included (default 1,000); past it the least recently used is dropped. */
  maxSessions?: number
  /**
   * Keep every session in Redis instead of this process, so several server
   * instances answer as one sandbox: `'redis://HOST:PORT/DB'`, or
   * `{ url, prefix }` (key prefix, default `petstore-sandbox:`). The
   * synchronous controls then throw; use the control API or `sandbox.state`.
   */
  store?: StoreOption
  /**
   * Put the sandbox in front of a real deployment (contract §17): its base URL
   * (`'https://staging.example.test/v1'`), or `{ url, key, timeoutMs, strict,
   * localLimits, record, replay, replayFallback, mode }`. API requests are
   * forwarded (the sandbox's own parameters removed) and every answer is
   * checked against the contract; scenarios other than default, slow and flaky
   * are still answered here. See docs/upstream.md.
   */
  upstream?: string | UpstreamOptions
  /**
   * Operations from an OpenAPI 3.0 or 3.1 document (contract §20), answered
   * next to the contract's with the same key, quota, sessions and scenarios:
   * a path to a YAML or JSON file (Node runtimes; relative to the working
   * directory), or the document as an object. Its paths are below the base
   * path. Await `sandbox.ready` to see a refused document at start. See
   * docs/your-endpoints.md.
   */
  openapi?: OpenApiSource
  /**
   * The name journal entries give the instance that answered (`instance`),
   * when several share a store. The standalone server's default on a store:
   * `<host name>:<process id>`; none otherwise.
   */
  instance?: string
}

/**
 * Every public option of the core (`createSandboxCore`); each entry adds its
 * own. Another one is a mistake (a typo, say) and fails fast, naming these.
 */
export const SANDBOX_OPTION_NAMES = [
  'baseUrl',
  'seed',
  'pets',
  'keys',
  'scenario',
  'scenarios',
  'flaky',
  'rateLimit',
  'now',
  'journalSize',
  'journalMaxEntries',
  'journalMaxBytes',
  'deprecatedAt',
  'sunsetAt',
  'onError',
  'sessionTtlMs',
  'maxSessions',
  'store',
  'upstream',
  'instance',
  'openapi',
  ...FIDELITY_SETTING_NAMES,
] as const satisfies readonly (keyof SandboxOptions)[]

export const DEFAULT_BASE_PATH = '/v1'
export const DEFAULT_DEPRECATED_AT = '2026-01-01T00:00:00Z'
export const DEFAULT_SUNSET_AT = '2030-12-05T00:00:00Z'
