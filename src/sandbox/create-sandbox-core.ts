import { createBaseKeys } from '../auth/key-registry.js'
import type { FidelitySettings } from '../contract/fidelity.js'
import type { PetStore } from '../db/pet-store.js'
import { ApiError } from '../http/api-error.js'
import type { Awaitable } from '../http/awaitable.js'
import { listNames, quoteText } from '../http/quote-text.js'
import type { SandboxRequest, SandboxResponse } from '../http/types.js'
import { type Har, toHAR } from '../journal/to-har.js'
import type { OpenApiOperations } from '../openapi/create-openapi-operations.js'
import type { Operation } from '../operations/operation.js'
import { createRouteTable, type RouteTable } from '../operations/route-table.js'
import { type Answer, type HandleOptions, handleRequest } from '../pipeline/handle-request.js'
import type { AccountKeyHook, PipelineContext } from '../pipeline/pipeline-context.js'
import { builtInScenarios } from '../scenarios/built-in-scenarios.js'
import { createScenarioRegistry, type ScenarioRegistry } from '../scenarios/scenario-registry.js'
import type { Sticky, Timeline } from '../scenarios/timeline.js'
import type { Listener } from '../state/emitter.js'
import { createMemoryState } from '../state/memory-state.js'
import type { SandboxEvents } from '../state/sandbox-events.js'
import {
  DEFAULT_SESSION,
  dropOtherSessions,
  type SandboxState,
  SESSION_ID,
  type SessionSummary,
} from '../state/sandbox-state.js'
import type { SharedState } from '../state/shared-store.js'
import type { UpstreamMode } from '../upstream/create-upstream-mode.js'
import { createSessionModes } from '../upstream/session-modes.js'
import { resolveUpstreamOptions, type SessionMode } from '../upstream/upstream-options.js'
import { createModeControls } from './mode-controls.js'
import { type HandleInput, normalizeRequest } from './normalize-request.js'
import { openOpenApi } from './open-openapi.js'
import { type ResetOptions, readResetScope } from './reset-options.js'
import { resolveOptions } from './resolve-options.js'
import { resolveSticky, type TimelineSetting } from './resolve-sticky.js'
import type { SandboxOptions } from './sandbox-options.js'
import { createSessionControls, type SessionControls } from './session-controls.js'
import { storeSupport } from './store-support.js'

export type { ResetOptions } from './reset-options.js'
export type { ScenarioInfo, SessionControls } from './session-controls.js'

/** A session as `sessions.list()` shows it. */
export type SessionInfo = SessionSummary

/**
 * A running sandbox without MSW: the runtime-free core, the default session's
 * controls, and the other sessions. `S` is the names of your own scenarios.
 */
export interface SandboxCore<S extends string = never> extends SessionControls<S> {
  /**
   * Back to the seeded pets, the start scenario, the real clock, fresh quotas
   * and bans, no run-time keys, an empty journal. `{ sessions: 'all' }` also
   * drops every other session and the keys bound to them.
   */
  reset(options?: ResetOptions): Promise<void>
  /** The API's path prefix, e.g. `/v1`. */
  readonly basePath: string
  /**
   * The operations this sandbox answers: the contract's three, then those added
   * at its creation (own handlers, an OpenAPI document's; decision 0042).
   */
  readonly operations: readonly Operation[]
  /**
   * @internal The operations of the `openapi` option's document (contract §20),
   * once loaded; undefined without the option. What the server's document,
   * the data file and verify read.
   */
  readonly openapi: Promise<OpenApiOperations> | undefined
  /** The one origin the sandbox answers for (from a full `baseUrl`), or undefined for any. */
  readonly origin: string | undefined
  /**
   * The fidelity settings (contract §16) this sandbox answers with, resolved:
   * the options given, the contract's guesses for the rest. What the upstream
   * mode's validator and `verify` compare against.
   */
  readonly fidelity: Readonly<FidelitySettings>
  /**
   * The core: a request in, a plain response out; null when the request is not
   * the API's. Header names and the method may be in any case; the body may be
   * bytes, a string, or a value to send as JSON. The URL must be absolute.
   */
  handle(request: HandleInput, options?: HandleOptions): Promise<SandboxResponse | null>
  /** As `handle`, with the request's journal entry (what a runtime logs). */
  answer(request: HandleInput, options?: HandleOptions): Promise<Answer | null>
  /**
   * @internal As `answer`, for a runtime whose request is already the core's
   * own shape (upper-case method, lower-case header names, absolute URL, bytes):
   * nothing is checked or copied (the standalone server's hot path). The
   * answer itself when nothing had to wait (memory), a promise otherwise; a
   * programming error may be thrown rather than rejected (decision 0039).
   */
  answerRequest(request: SandboxRequest, options?: HandleOptions): Awaitable<Answer | null>
  /** Typed events for extensions: `request`, `change`, `reset`, `keys`, `scenario`, `clock`, `session`. */
  readonly events: {
    on<K extends keyof SandboxEvents>(type: K, listener: Listener<SandboxEvents[K]>): () => void
  }
  /**
   * The state seam behind the sandbox (every session, asynchronous calls): what
   * the control API drives, so that a shared store plugs in without it changing.
   */
  readonly state: SandboxState
  /** The scenarios, built-in and yours, shared by every session. */
  readonly scenarios: ScenarioRegistry
  /**
   * Releases the shared store's connection (the `store` option); nothing to do in memory.
   * A sandbox on a shared store cannot answer after it.
   */
  disconnect(): Promise<void>
  /** Upstream mode (the `upstream` option, contract §17); without it, `modes` is `['sandbox']`. */
  readonly upstream: UpstreamControls
  /** The controls of one session, created on first use (the same controls as the sandbox's own). */
  session(id: string): SessionControls<S>
  readonly sessions: {
    /** Every live session, `default` first. */
    list(): SessionInfo[]
    /** Drops a session with everything in it; false when there is none. `default` cannot be dropped. */
    drop(id: string): boolean
    /**
     * The pets of a live session (its own store), without counting as a use of it;
     * undefined for no such session, or on a shared store. What the data file writes.
     */
    pets(id: string): PetStore | undefined
  }
}

/** What a sandbox in front of an upstream tells and keeps (docs/upstream.md). */
export interface UpstreamControls {
  /** The upstream's base URL (a password in it hidden); undefined without one. */
  readonly url: string | undefined
  /** The modes a session can be in: `sandbox`, plus `upstream` with a URL, `replay` with a recording. */
  readonly modes: readonly SessionMode[]
  /**
   * The forwarded traffic recorded so far, HAR 1.2 (no entries without the
   * `record` option, nor with a file or an appender: they keep none in memory).
   */
  recording(): Promise<Har>
  /** How many forwarded answers were recorded (to memory, a file or a function). */
  recorded(): Promise<number>
  /** Resolves once the recording's file (or function) has every recorded answer. */
  flush(): Promise<void>
  /** The recording being replayed: answers indexed, entries skipped; undefined without `replay`. */
  replay(): Promise<{ answers: number; skipped: number } | undefined>
}

/** The start scenario's name, and its timeline when it is one; a TypeError naming the problem otherwise. */
const resolveStart = (
  scenarios: ScenarioRegistry,
  option: string | TimelineSetting,
): { name: string; timeline: Timeline | undefined } => {
  if (typeof option === 'string' && scenarios.get(option) === undefined) {
    const names = listNames(scenarios.list().map((s) => s.name))
    throw new TypeError(
      `Failed to create the sandbox: scenario ${quoteText(option)} is unknown. Use one of ${names}.`,
    )
  }
  let sticky: Sticky
  try {
    sticky = resolveSticky(scenarios, option, 0)
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    throw new TypeError(
      `Failed to create the sandbox: the start scenario is not valid. ${error.message} Fix the scenario option.`,
    )
  }
  return typeof sticky === 'string'
    ? { name: sticky, timeline: undefined }
    : { name: sticky.name, timeline: { phases: sticky.phases, repeat: sticky.repeat } }
}

const hidePassword = (url: string | undefined): string | undefined =>
  url?.replace(/\/\/[^@/]*@/, '//***@')

/**
 * What a runtime or an extension adds to a sandbox at its creation (decision
 * 0042): operations beyond the contract's, each `{ id, method, path, run }`
 * with `path` below the base path. They are routed, authenticated, counted,
 * put through the scenario and journaled as the contract's are.
 */
export interface SandboxAdditions {
  operations?: readonly Operation[] | undefined
  /** What answers a path below the base path that no operation matches (own handlers without a route). */
  fallback?: Operation | undefined
  /**
   * Accounts (contract §22, the standalone server's `--accounts`): the account
   * keys the pipeline asks first, and the most pets a session may hold.
   */
  accounts?: { keys: AccountKeyHook; maxPets: number } | undefined
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
export const createSandboxCore = <const S extends string = never>(
  options: SandboxOptions<S> = {},
  additions: SandboxAdditions | ((basePath: string) => SandboxAdditions) = {},
): SandboxCore<S> => {
  const { origin, settings } = resolveOptions(options)
  // A function when the additions depend on the base path (own handlers' routes are written with it).
  const added = typeof additions === 'function' ? additions(settings.basePath) : additions
  const routes = createRouteTable(added.operations, 'create the sandbox', added.fallback)
  const scenarios = createScenarioRegistry(
    options.scenarios,
    builtInScenarios({ flaky: options.flaky }),
  )
  const start = resolveStart(scenarios, options.scenario ?? 'default')
  const startScenario = start.name
  const onError =
    options.onError ??
    ((error: unknown) => console.error('[petstore-sandbox] internal error:', error))
  const stateOptions = {
    seed: options.seed,
    pets: options.pets,
    // Scenario keys (contract §19) follow the registry: one registered later gets its key too.
    baseKeys: createBaseKeys(
      options.keys,
      (name) => scenarios.get(name) !== undefined,
      () => scenarios.list().map((s) => s.name),
    ),
    rateLimit: options.rateLimit,
    journalSize: options.journalSize,
    journalMaxEntries: options.journalMaxEntries,
    journalMaxBytes: options.journalMaxBytes,
    now: options.now,
    startScenario,
    startTimeline: start.timeline,
    sessionTtlMs: options.sessionTtlMs,
    maxSessions: options.maxSessions,
    onError,
  }
  // Hook (issue 13): a shared store (Redis) replaces the in-memory state; its
  // code is imported only then. The synchronous controls cannot work on it.
  const shared: SharedState | undefined =
    options.store === undefined ? undefined : storeSupport().open(options.store, stateOptions)
  const memory =
    shared === undefined
      ? createMemoryState({ ...stateOptions, limiter: options.limiter })
      : undefined
  const state: SandboxState = shared ?? (memory as NonNullable<typeof memory>)
  if (
    options.instance !== undefined &&
    (typeof options.instance !== 'string' || !/^[A-Za-z0-9._:@-]{1,64}$/.test(options.instance))
  )
    throw new TypeError(
      `Failed to create the sandbox: instance "${String(options.instance)}" must be 1-64 characters of A-Z a-z 0-9 . _ : @ -.`,
    )
  if (added.accounts !== undefined) settings.maxPets = added.accounts.maxPets
  const ctx: PipelineContext = {
    accountKeys: added.accounts?.keys,
    settings,
    routes,
    origin,
    scenarios,
    state,
    onError,
    instance: options.instance,
  }

  // Operations from an OpenAPI document (contract §20): its code is imported only with the option.
  // On a shared store their records live there too (decision 0049).
  let observed = false
  const openapi =
    options.openapi === undefined
      ? undefined
      : openOpenApi({
          source: options.openapi,
          seed: options.seed,
          shared: shared?.collections,
          ctx,
          added: added.operations ?? [],
          onSessionEnd(listener) {
            state.events.on('reset', ({ session }) => listener(session))
            state.events.on('session', ({ session, type }) => {
              if (type === 'drop') listener(session)
            })
          },
        })
  // A document refused while nobody awaits `ready` is reported (a test that never awaits it still sees why).
  openapi?.catch((error: unknown) => {
    if (!observed) onError(error)
  })
  // The controls' judge reads the table when asked: the document's operations count once loaded.
  const live: RouteTable = {
    get router() {
      return ctx.routes.router
    },
    get operations() {
      return ctx.routes.operations
    },
    get ids() {
      return ctx.routes.ids
    },
  }

  // Upstream mode (contract §17): its code is imported only when the option is given.
  const upstream =
    options.upstream === undefined ? undefined : resolveUpstreamOptions(options.upstream)
  const modes = createSessionModes(upstream?.startMode ?? 'sandbox', upstream?.modes ?? ['sandbox'])
  let front: Promise<UpstreamMode> | undefined
  let loaded: UpstreamMode | undefined
  if (upstream !== undefined) {
    const config = upstream
    front = import('../upstream/create-upstream-mode.js').then(({ createUpstreamMode }) => {
      loaded = createUpstreamMode({ ctx, config, modes })
      return loaded
    })
    const loading = front
    ctx.upstream = {
      inFront: (id) => modes.get(id) !== 'sandbox',
      answer: async (input) => (loaded ?? (await loading)).answer(input),
    }
    // A reset or a dropped session starts over: the start mode, the recording from its start.
    const startOver = (session: string): void => {
      modes.forget(session)
      loaded?.rewind(session)
    }
    state.events.on('reset', ({ session }) => startOver(session))
    state.events.on('session', ({ session, type }) => {
      if (type === 'drop') startOver(session)
    })
  }

  // Untyped names inside: the controls check every name against the registry at run time.
  const controlsOf = (id: string): SessionControls<string> =>
    memory === undefined
      ? storeSupport().controls({
          id,
          state: shared as SharedState,
          scenarios,
          fallback: {
            startScenario,
            baseKeys: stateOptions.baseKeys,
            now: options.now ?? (() => Date.now()),
          },
          mode: createModeControls(modes, id),
          routes: live,
          openapi,
        })
      : createSessionControls({
          id,
          state: memory,
          scenarios,
          resolve: () => memory.session(id),
          mode: createModeControls(modes, id),
          routes: live,
          openapi,
        })
  const own = controlsOf(DEFAULT_SESSION)
  const resetDefault = own.reset
  // Async: the public calls always answer a promise (and reject, never throw).
  const answer = async (request: HandleInput, handleOptions?: HandleOptions) =>
    handleRequest(ctx, normalizeRequest(request), handleOptions)

  const sandbox = Object.assign(own, {
    reset: async (resetOptions?: ResetOptions) => {
      // Through the state seam, so it holds in memory and on a shared store alike.
      if (readResetScope(resetOptions) === 'all') await dropOtherSessions(state)
      await resetDefault()
    },
    basePath: settings.basePath,
    operations: routes.operations,
    openapi,
    origin,
    fidelity: settings.fidelity,
    answer,
    answerRequest: (request: SandboxRequest, handleOptions?: HandleOptions) =>
      handleRequest(ctx, request, handleOptions),
    // One async step, not `answer`'s and its own (decision 0064).
    handle: async (request: HandleInput, handleOptions?: HandleOptions) =>
      (await handleRequest(ctx, normalizeRequest(request), handleOptions))?.response ?? null,
    events: { on: state.events.on },
    state,
    scenarios,
    upstream: {
      url: hidePassword(upstream?.url),
      modes: modes.available,
      recording: async () => (await front)?.recording() ?? toHAR([]),
      recorded: async () => (await front)?.recorded() ?? 0,
      flush: async () => {
        await (await front)?.flush()
      },
      replay: async () => (await front)?.replayed(),
    },
    disconnect: async () => {
      await shared?.close()
    },
    session(id: string): SessionControls<string> {
      if (typeof id !== 'string' || !SESSION_ID.test(id)) {
        throw new TypeError(
          `Failed to select session "${String(id)}": a session id is 1-64 characters of A-Z a-z 0-9 . _ -.`,
        )
      }
      if (memory === undefined) return controlsOf(id)
      memory.session(id)
      return id === DEFAULT_SESSION ? own : controlsOf(id)
    },
    sessions: {
      list(): SessionInfo[] {
        if (memory === undefined)
          throw new TypeError(
            'Failed to list the sessions: this sandbox keeps them in a shared store. Use GET /__sandbox/sessions or `await sandbox.state.listSessions()`.',
          )
        return memory.listSessions()
      },
      pets: (id: string) => memory?.peekSession(id)?.pets,
      drop(id: string): boolean {
        if (id === DEFAULT_SESSION)
          throw new TypeError(
            'Failed to drop the session "default": it is never dropped. Reset it instead.',
          )
        if (memory === undefined)
          throw new TypeError(
            'Failed to drop the session: this sandbox keeps it in a shared store. Use DELETE /__sandbox/sessions/{id} or `await sandbox.state.dropSession(id)`.',
          )
        return memory.dropSession(id)
      },
    },
  }) satisfies SandboxCore<string>
  if (openapi !== undefined) {
    // The table grows once the document is loaded; `ready` waits for it (and rejects for a refused one).
    const sessionReady = Object.getOwnPropertyDescriptor(own, 'ready')?.get?.bind(own)
    Object.defineProperty(sandbox, 'operations', { get: () => ctx.routes.operations })
    Object.defineProperty(sandbox, 'ready', {
      get: () => {
        observed = true
        return Promise.all([openapi, sessionReady?.()]).then(() => undefined)
      },
    })
  }
  return sandbox as unknown as SandboxCore<S>
}

export type { Answer, HandleInput, HandleOptions }
