import { type ApiKeyInfo, type CreateKeyOptions, KeyOptionError } from '../auth/key-registry.js'
import type { SandboxClock } from '../clock/clock.js'
import type { PetStore } from '../db/pet-store.js'
import { ApiError } from '../http/api-error.js'
import type { JournalEntry } from '../journal/journal.js'
import { type Har, type ToHarOptions, toHAR } from '../journal/to-har.js'
import type { ClientReport } from '../judge/finding.js'
import type { CoverageReport } from '../judge/measure-coverage.js'
import type { ExpectOptions, RequestMatch } from '../judge/request-match.js'
import type { OpenApiOperations } from '../openapi/create-openapi-operations.js'
import type { RouteTable } from '../operations/route-table.js'
import type { PactExport, PactOptions } from '../pact/pact-document.js'
import type { ScenarioName } from '../scenarios/built-in-scenarios.js'
import type { Scenario } from '../scenarios/define-scenario.js'
import type { ScenarioRegistry } from '../scenarios/scenario-registry.js'
import { type Sticky, stickyName } from '../scenarios/timeline.js'
import type { MemorySessionState, MemoryState } from '../state/memory-state.js'
import { SESSION_ID } from '../state/sandbox-state.js'
import { createJournalJudge } from './judge-journal.js'
import type { ModeControls } from './mode-controls.js'
import {
  resolveSticky,
  type TimelineSetting,
  type TimelineStatus,
  timelineStatus,
} from './resolve-sticky.js'

/** A scenario as the controls list it. */
export interface ScenarioInfo {
  name: string
  description: string
}

/**
 * The controls of one session: what a test steers. `S` is the names of the
 * scenarios given in the options (see `ScenarioName`); it only narrows what
 * the controls take, so a `Sandbox<'mine'>` still passes where a `Sandbox` is asked for.
 */
export interface SessionControls<S extends string = never> {
  /** The session's id (`default` for the sandbox's own controls). */
  readonly id: string
  /** Resolves once the session's pets are in place. Requests wait for it by themselves. */
  readonly ready: Promise<void>
  /** Back to the seeded pets, the start scenario, the real clock, fresh quotas and bans, no run-time keys, an empty journal. */
  reset(): Promise<void>
  readonly keys: {
    /**
     * Creates a run-time key in this session, or in the one `session` names:
     * its requests always land in that session.
     */
    create(options: CreateKeyOptions & { session?: string | undefined }): ApiKeyInfo
    /** Revokes a key in this session (demo keys too) until the next reset; false for an unknown key. */
    revoke(key: string): boolean
    list(): ApiKeyInfo[]
  }
  /** This session's clock. */
  readonly clock: SandboxClock
  readonly scenario: {
    /** The sticky scenario's name (a timeline's: `outage`, or `timeline` for one set inline). */
    get(): string
    /**
     * Makes a scenario sticky in this session; throws for an unknown name. A
     * scenario registered later with `register` is not in the type: pass it
     * in the options to use it without a cast. A timeline (`outage`, or
     * `{ timeline: [{ scenario, forMs }], repeat }`) runs on the session's
     * clock from this moment.
     *
     * @example
     * sandbox.scenario.set({ timeline: [{ scenario: 'unavailable', forMs: 30_000 }, { scenario: 'default', forMs: 1 }] })
     */
    set(name: ScenarioName<S> | TimelineSetting): void
    /** Where the sticky timeline stands (its phase and the time left); undefined when the sticky scenario is no timeline. */
    timeline(): TimelineStatus | undefined
    list(): ScenarioInfo[]
    /** Registers a scenario for the whole sandbox (every session). */
    register(scenario: Scenario): void
  }
  readonly journal: {
    list(): JournalEntry[]
    clear(): void
    /** The journal as an HTTP Archive (HAR 1.2) for browser devtools and Playwright's `routeFromHAR`. */
    toHAR(options?: ToHarOptions): Har
  }
  /** The session's own pets (the store of the default scenario). */
  readonly db: { readonly pets: PetStore }
  /** Assertions on the requests the session's journal holds (docs/judging-the-client.md). */
  readonly requests: {
    /**
     * The journal's entries that match, in journal order (every field given
     * must hold; `find()` gives them all). Asynchronous: its code loads when
     * first used, and it reads a shared store's journal too.
     *
     * @example
     * (await sandbox.requests.find({ method: 'GET', path: '/v1/pets/:petId' })).length // 2
     */
    find(match?: RequestMatch): Promise<JournalEntry[]>
    /**
     * Resolves the matching entries when there are `times` of them (default:
     * at least one); rejects with a `RequestExpectationError` whose message
     * shows the nearest misses as a diff otherwise. Works on a shared store too.
     *
     * @example
     * await sandbox.requests.expect({ method: 'POST', path: '/v1/pets', body: { name: 'Rex' } }, { times: 1 })
     */
    expect(match: RequestMatch, options?: ExpectOptions): Promise<JournalEntry[]>
  }
  /**
   * What the client did wrong in this session (contract §18): findings by
   * rule, level and the journal `seq`s that show them, in journal order.
   *
   * @example
   * const { findings } = await sandbox.report()
   */
  report(): Promise<ClientReport>
  /**
   * Which of the contract's statuses, notable headers and faults the client
   * met in this session, per operation (what its tests never exercised).
   *
   * @example
   * const { operations } = await sandbox.coverage()
   */
  coverage(): Promise<CoverageReport>
  /**
   * The session's journal as a Pact v4 file (contract §21, docs/pact.md): one
   * interaction per distinct exchange, the scenario as the provider state, no
   * secret and no time- or quota-bound header; `problems` lists the exchanges
   * the OpenAPI pre-check refused (left out of the pact), `skipped` the faults
   * without an HTTP answer. Throws a TypeError for a missing or bad name.
   *
   * @example
   * const { pact, problems } = await sandbox.pact({ consumer: 'web-app', provider: 'pet-store' })
   */
  pact(options: PactOptions): Promise<PactExport>
  /** How the session answers: `sandbox`, or in front of an upstream, `upstream` or `replay` (contract §17). */
  readonly mode: ModeControls
}

/**
 * The synchronous controls of a session held in memory. They delegate to the
 * state, which emits the sandbox's events (extensions follow those; nothing
 * wraps these methods).
 *
 * @example
 * const controls = createSessionControls({ id: 'w1', state, scenarios, resolve: () => state.session('w1'), mode })
 */
export const createSessionControls = (input: {
  id: string
  state: MemoryState
  scenarios: ScenarioRegistry
  /** The session behind the controls (created again if it was dropped meanwhile). */
  resolve: () => MemorySessionState
  mode: ModeControls
  /** The sandbox's operations (decision 0042); default the contract's. */
  routes?: RouteTable | undefined
  /** The `openapi` option's operations, loading (the pact's pre-check reads their document). */
  openapi?: Promise<OpenApiOperations> | undefined
}): SessionControls<string> => {
  const { id, state, scenarios, resolve, mode } = input
  const clock: SandboxClock = {
    now: () => resolve().now(),
    set: (time) => resolve().setClock(time),
    advance: (ms) => resolve().advanceClock(ms),
    useRealTime: () => resolve().useRealTime(),
    get frozen() {
      return resolve().clock().frozen
    },
  }
  const judge = createJournalJudge(id, () => resolve().listJournal(), input.routes, input.openapi)
  return {
    id,
    get ready() {
      return Promise.resolve(resolve().ready())
    },
    reset: () => resolve().reset(),
    keys: {
      create({ session: target = id, ...options }) {
        if (typeof target !== 'string' || !SESSION_ID.test(target)) {
          throw new KeyOptionError(
            `Failed to create a key: session "${String(target)}" is not a session id (1-64 characters of A-Z a-z 0-9 . _ -).`,
          )
        }
        return (target === id ? resolve() : state.session(target)).createKey(options)
      },
      revoke: (key) => resolve().revokeKey(key),
      list: () => resolve().listKeys(),
    },
    clock,
    scenario: {
      get: () => stickyName(resolve().sticky()),
      set(name) {
        const session = resolve()
        let sticky: Sticky
        try {
          sticky = resolveSticky(scenarios, name, session.now())
        } catch (error) {
          if (!(error instanceof ApiError)) throw error
          throw new TypeError(`Failed to set the scenario: ${error.message}`, { cause: error })
        }
        session.setSticky(sticky)
      },
      timeline: () => {
        const session = resolve()
        return timelineStatus(session.sticky(), session.now())
      },
      list: () => scenarios.list().map(({ name, description }) => ({ name, description })),
      register: (scenario) => scenarios.register(scenario),
    },
    journal: {
      list: () => resolve().listJournal(),
      clear: () => resolve().clearJournal(),
      toHAR: (options) => toHAR(resolve().listJournal(), options),
    },
    db: {
      get pets() {
        return resolve().pets
      },
    },
    requests: { find: judge.find, expect: judge.expect },
    report: judge.report,
    coverage: judge.coverage,
    pact: judge.pact,
    mode,
  }
}
