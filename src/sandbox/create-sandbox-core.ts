import { type ApiKeyInfo, type CreateKeyOptions, createKeyRegistry } from '../auth/key-registry.js'
import { createClock, type SandboxClock } from '../core/clock.js'
import { type HandleOptions, handleRequest, type PipelineState } from '../core/handle-request.js'
import { createJournal, type JournalEntry } from '../core/journal.js'
import type { SandboxRequest, SandboxResponse } from '../core/types.js'
import { PetStore } from '../db/pet-store.js'
import { createRateLimiter } from '../rate-limit/rate-limiter.js'
import { builtInScenarios } from '../scenarios/built-in-scenarios.js'
import { createScenarioState } from '../scenarios/create-scenario-state.js'
import type { Scenario } from '../scenarios/define-scenario.js'
import { createScenarioRegistry } from '../scenarios/scenario-registry.js'
import { resolveOptions } from './resolve-options.js'
import type { SandboxOptions } from './sandbox-options.js'

/** A scenario as the controls list it. */
export interface ScenarioInfo {
  name: string
  description: string
}

/** A running sandbox without MSW: the runtime-free core and its controls. */
export interface SandboxCore {
  /** The API's path prefix, e.g. `/v1`. */
  readonly basePath: string
  /** The one origin the sandbox answers for (from a full `baseUrl`), or undefined for any. */
  readonly origin: string | undefined
  /** Resolves once the seeded pets are in place. Requests wait for it by themselves. */
  readonly ready: Promise<void>
  /**
   * The core: a plain request in, a plain response out; null when the request
   * is not the API's (and, with `passUnknownRoutes`, when no API route matches its path).
   */
  handle(request: SandboxRequest, options?: HandleOptions): Promise<SandboxResponse | null>
  /** Back to the seeded pets, the start scenario, the real clock, fresh quotas and bans, no run-time keys, an empty journal. */
  reset(): Promise<void>
  readonly keys: {
    create(options: CreateKeyOptions): ApiKeyInfo
    revoke(key: string): boolean
    list(): ApiKeyInfo[]
  }
  readonly clock: SandboxClock
  readonly scenario: {
    /** The sticky scenario's name. */
    get(): string
    /** Makes a scenario sticky; throws for an unknown name. */
    set(name: string): void
    list(): ScenarioInfo[]
    register(scenario: Scenario): void
  }
  readonly journal: {
    list(): JournalEntry[]
    clear(): void
  }
  /** The data behind the default scenario. */
  readonly db: { readonly pets: PetStore }
}

/**
 * Creates the sandbox's core without MSW: what the standalone server and the
 * Playwright entry use, so they never load msw. Most users want
 * `createSandbox`, which adds the MSW handlers.
 *
 * @example
 * const core = createSandboxCore({ seed: 1 })
 * const response = await core.handle({ method: 'GET', url: 'http://x/v1/pets', headers: {}, body: null })
 */
export const createSandboxCore = (options: SandboxOptions = {}): SandboxCore => {
  const { origin, settings } = resolveOptions(options)
  const seedOptions = { seed: options.seed, count: options.pets }
  const clock = createClock(options.now === undefined ? {} : { source: options.now })
  const keys = createKeyRegistry(options.keys)
  const limiter = options.limiter ?? createRateLimiter(options.rateLimit)
  const scenarios = createScenarioRegistry(
    options.scenarios,
    builtInScenarios({ flaky: options.flaky }),
  )
  // Scenario stores (empty, paginated, yours) and random streams, per sandbox.
  const scenarioState = createScenarioState({ seed: options.seed, pets: options.pets })
  const journal = createJournal(options.journalSize)
  const startScenario = options.scenario ?? 'default'
  const checkScenario = (name: string): void => {
    if (scenarios.get(name) === undefined) {
      const names = scenarios
        .list()
        .map((s) => s.name)
        .join(', ')
      throw new TypeError(`Failed to set the scenario: "${name}" is unknown. Use one of ${names}.`)
    }
  }
  checkScenario(startScenario)
  let sticky = startScenario

  let pets = new PetStore()
  let ready = PetStore.seeded(seedOptions).then((store) => {
    pets = store
  })

  const state: PipelineState = {
    settings,
    origin,
    clock,
    keys,
    limiter,
    scenarios,
    stickyScenario: () => sticky,
    journal,
    resolveStore: ({ scenario }) => scenarioState.store(scenario) ?? pets,
    scenarioRandom: (scenario) => scenarioState.random(scenario),
    onError:
      options.onError ?? ((error) => console.error('[petstore-sandbox] internal error:', error)),
  }

  const handle = async (
    request: SandboxRequest,
    options?: HandleOptions,
  ): Promise<SandboxResponse | null> => {
    await ready
    return handleRequest(state, request, options)
  }

  return {
    basePath: settings.basePath,
    origin,
    get ready() {
      return ready
    },
    handle,
    async reset() {
      ready = PetStore.seeded(seedOptions).then((store) => {
        pets = store
      })
      sticky = startScenario
      clock.useRealTime()
      limiter.reset()
      scenarioState.reset()
      keys.reset()
      journal.clear()
      await ready
    },
    keys: { create: (o) => keys.create(o), revoke: (k) => keys.revoke(k), list: () => keys.list() },
    clock,
    scenario: {
      get: () => sticky,
      set(name) {
        checkScenario(name)
        sticky = name
      },
      list: () => scenarios.list().map(({ name, description }) => ({ name, description })),
      register: (scenario) => scenarios.register(scenario),
    },
    journal: { list: () => journal.list(), clear: () => journal.clear() },
    db: {
      get pets() {
        return pets
      },
    },
  }
}
