import type { SandboxClock } from '../clock/clock.js'
import type { NewPet } from '../contract/pet.js'
import type { ApiError } from '../http/api-error.js'
import type { Fault, SandboxRequest, SandboxResponse } from '../http/types.js'
import type { OperationId, SandboxSettings } from '../operations/operation.js'
import { type Timeline, timelineProblems } from './timeline.js'

/** What a scenario sees of the request it may change, after authentication and rate limiting. */
export interface ScenarioContext {
  operationId: OperationId
  request: SandboxRequest
  /** The request's URL, to read: a copy (changing it changes neither the request nor its answer). */
  url: URL
  /** The sandbox clock, read-only: `now()` is the moment of this request. */
  clock: Pick<SandboxClock, 'now'>
  settings: SandboxSettings
  /** The rate-limit headers the real limiter gave this request (`X-RateLimit-*`). */
  rateLimit: Readonly<Record<string, string>>
  /**
   * The next number in [0, 1) from this scenario's seeded stream. Each sandbox
   * keeps one stream per scenario, seeded from the scenario's `seed` (else the
   * sandbox's `seed`) and its name, and `reset()` rewinds it: the same requests
   * in the same order draw the same numbers.
   */
  random(): number
}

/** What a scenario's `store` hook gets to build its pets from. */
export interface ScenarioStoreContext {
  /**
   * The pets the sandbox seeds (its `seed` option), `count` of them (default:
   * the sandbox's `pets` option). The first n are the default store's seeded pets.
   */
  seededPets(count?: number): NewPet[]
}

/**
 * A named behaviour of the sandbox. Scenarios are data: the pipeline asks each
 * hook in turn (`delayMs`, `fault`, `respond`, then the operation on the
 * scenario's store), and no handler branches on a scenario's name.
 * See docs/decisions/0005-scenarios-are-data.md.
 */
export interface Scenario<Name extends string = string> {
  /** Lower-case name used in `__scenario=` and `X-Sandbox-Scenario:`. */
  name: Name
  /** One sentence for the README, the dashboard and `unknown_scenario` messages. */
  description: string
  /**
   * Give the scenario its own store, holding these pets (ids 1..n in this
   * order). It is built on first use, kept per sandbox, and rebuilt after
   * `reset()`; pets created in the scenario land there, never in the default
   * store. Omit to read and write the default store.
   */
  store?: (ctx: ScenarioStoreContext) => readonly NewPet[]
  /** Answer instead of the operation: return an ApiError or a response, or undefined to go on. */
  respond?: (ctx: ScenarioContext) => ApiError | SandboxResponse | undefined
  /**
   * Wait this long (ms) before answering or failing. It may throw an ApiError
   * (a bad `__delay`, say); that error is answered at once.
   */
  delayMs?: (ctx: ScenarioContext) => number
  /**
   * A fault, by name (contract §8, §19): `network-error`, `timeout`,
   * `empty-response` and `proxy-error` answer instead of the operation (it
   * does not run); `reset-mid-body`, `truncated-body`, `stall-after-headers`,
   * `slow-body`, `malformed-json` and `commit-then-drop` run it and break its
   * answer. After `delayMs`.
   */
  fault?: Fault | ((ctx: ScenarioContext) => Fault | undefined)
  /**
   * The fault's setting, read when the fault applies: `slow-body`'s bytes a
   * second, `stall-after-headers`' hold in ms. It may throw an ApiError (a
   * bad `__bandwidth`); that error is answered at once.
   */
  faultSetting?: (ctx: ScenarioContext) => number
  /** Seed of the scenario's `random()` stream (default: the sandbox's `seed`). */
  seed?: number
  /**
   * In front of an upstream (contract §17): true when the scenario only
   * disturbs a real answer (its `delayMs`, `fault` and `respond` hooks run,
   * then the request is forwarded instead of running the operation), as
   * `default`, `slow` and `flaky` do. Otherwise (the default) the sandbox
   * answers the request itself and it never reaches the upstream.
   */
  forwards?: boolean
  /**
   * Makes the scenario a timeline: its phases answer in turn on the sandbox
   * clock, from the moment it is made sticky (or, named per request or as the
   * start scenario, from the first request of the session that meets it). A
   * timeline has no hooks of its own; each phase names another scenario.
   */
  timeline?: Timeline
}

const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/

/**
 * Declares a scenario, checking its shape once.
 *
 * @example
 * export const maintenance = defineScenario({
 *   name: 'maintenance',
 *   description: 'Every request answers 503.',
 *   respond: () => new ApiError('service_unavailable', 'Down for maintenance.'),
 * })
 */
export const defineScenario = <const S extends Scenario>(scenario: S): S => {
  if (!NAME.test(scenario.name)) {
    throw new TypeError(
      `Failed to define scenario "${scenario.name}": a name is 1-64 characters of a-z, 0-9 and "-", starting with a letter or digit.`,
    )
  }
  if (scenario.description.trim() === '') {
    throw new TypeError(
      `Failed to define scenario "${scenario.name}": give it a description; users see it in the README and in error messages.`,
    )
  }
  if (scenario.seed !== undefined && !Number.isSafeInteger(scenario.seed)) {
    throw new TypeError(
      `Failed to define scenario "${scenario.name}": seed must be an integer, got ${String(scenario.seed)}.`,
    )
  }
  if (scenario.timeline !== undefined) {
    // The phases' names are checked by the registry, which knows the other scenarios.
    const problems = timelineProblems(scenario.timeline.phases, () => true, 'timeline.phases')
    const hooks = (['store', 'respond', 'delayMs', 'fault'] as const).filter(
      (hook) => scenario[hook] !== undefined,
    )
    if (hooks.length > 0)
      problems.push({ field: hooks.join(', '), message: 'a timeline has no hooks of its own' })
    if (problems.length > 0)
      throw new TypeError(
        `Failed to define scenario "${scenario.name}": ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}. Fix its timeline.`,
      )
  }
  return scenario
}
