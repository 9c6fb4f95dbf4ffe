import type { ApiKeyInfo } from '../auth/key-registry.js'
import { parseAuthorization } from '../auth/parse-authorization.js'
import { ApiError } from '../http/api-error.js'
import { type Awaitable, drive } from '../http/awaitable.js'
import { internalError, invalidParameter } from '../http/errors.js'
import type { Forwarder } from '../http/forwarder.js'
import { renameErrorCode } from '../http/rename-error-code.js'
import type { SandboxRequest, SandboxResponse } from '../http/types.js'
import type { JournalEntry, JournalRecord } from '../journal/journal.js'
import { toJournalEntry } from '../journal/to-journal-entry.js'
import type { PhaseRef, Sticky } from '../scenarios/timeline.js'
import { stickyName } from '../scenarios/timeline.js'
import { DEFAULT_SESSION, type SessionState } from '../state/sandbox-state.js'
import { STALE_RETRIES, StaleStateError } from '../state/stale-state.js'
import { type Admission, admit, peekQuota } from './admit.js'
import { accountCaller, type Caller, identify, requireKey } from './authenticate.js'
import { finish } from './finish.js'
import { locate } from './locate.js'
import type { PipelineContext, UpstreamHook } from './pipeline-context.js'
import { allowedMethods, matchOperation, route } from './route.js'
import { run } from './run.js'
import {
  choosePhase,
  type PhaseChoice,
  requestedScenario,
  selectScenario,
} from './select-scenario.js'
import { requestedSession, selectSession } from './select-session.js'

export interface HandleOptions {
  /**
   * Answer null for a path below the base path that no API route matches,
   * before anything is checked, so that the runtime can pass it to the
   * user's own handlers (default false: 404 `route_not_found` after the checks).
   */
  passUnknownRoutes?: boolean
  /** Appended to the 404 for the bare base path (`/v1`): the server names its dashboard and OpenAPI document. */
  basePathHint?: string
  /** In upstream mode, how this runtime reaches the upstream (default: `fetch`). */
  forward?: Forwarder | undefined
}

/** An answered request: the response and its journal entry. */
export interface Answer {
  readonly response: SandboxResponse
  /** The journal's entry (secrets redacted), made when first read. */
  readonly entry: JournalEntry
  /** @internal The journal's record itself (what a runtime's log line reads, without redacting anything). */
  readonly record: JournalRecord
  /**
   * Marks the journal's entry `aborted`: the client went away before the
   * answer (or the fault) reached it. Runtimes call it for held answers only
   * (a delay, a `timeout`), never on the hot path.
   */
  markAborted(): Promise<void>
}

/** An answer whose entry is made on first read: a runtime that never reads it pays nothing for it. */
class LazyAnswer implements Answer {
  #entry: JournalEntry | undefined
  constructor(
    readonly response: SandboxResponse,
    readonly record: JournalRecord,
    private readonly session: SessionState,
  ) {}
  get entry(): JournalEntry {
    this.#entry ??= toJournalEntry(this.record)
    return this.#entry
  }
  async markAborted(): Promise<void> {
    if (this.record.aborted) return
    await this.session.markAborted(this.record)
    this.#entry = undefined
  }
}

const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>
const PUBLIC_ADMISSION: Admission = Object.freeze({ headers: NO_HEADERS, refusal: undefined })

// The bare base path is where people start exploring: its 404 names the routes (issue 15).
const bareBasePathHint = (ctx: PipelineContext, options: HandleOptions): string => {
  const base = ctx.settings.basePath
  const routes = ctx.routes.router.routes().map((r) => `${base}${r.template}`)
  const more = options.basePathHint === undefined ? '' : ` ${options.basePathHint}`
  return ` The API's routes: ${routes.join(', ')}.${more}`
}

const toResponse = (ctx: PipelineContext, error: unknown): SandboxResponse => {
  if (error instanceof ApiError) return error.toResponse()
  ctx.onError(error)
  return internalError().toResponse()
}

/**
 * The contract, once, as named stages: locate (is it the API's?), select the
 * session, identify the caller, admit (the rate limit; an exhausted anonymous
 * bucket answers 429 before the 401, decision 0004), require a key (401),
 * select the scenario, route (404, 405), run (the scenario's hooks, then
 * validation and the operation), finish (headers, journal, event). A bare
 * `OPTIONS` on a known path is answered 204 with `Allow` after identification,
 * without quota. Null for a request outside the base path.
 *
 * The answer comes at once when nothing waits (the in-memory state, no
 * delay to decide): no promise and no microtask on that path. A stage that
 * waits (a shared store, a listener of the `request` event) makes it a
 * promise from there on (decision 0039). Callers `await` it either way.
 *
 * @example
 * const answer = await handleRequest(ctx, request)
 */
export const handleRequest = (
  ctx: PipelineContext,
  request: SandboxRequest,
  options: HandleOptions = {},
  attempt = 0,
): Awaitable<Answer | null> => drive(stages(ctx, request, options, attempt))

// The stages as a generator that yields only what is pending (`drive`): each
// `if (x instanceof Promise) x = yield x` is an `await` that costs nothing
// when the value is already there.
function* stages(
  ctx: PipelineContext,
  request: SandboxRequest,
  options: HandleOptions,
  attempt: number,
): Generator<Promise<unknown>, Awaitable<Answer | null>, unknown> {
  const located = locate(ctx, request)
  if (located === undefined) return null
  const { url, path } = located
  // Operations added from an OpenAPI document route once it is loaded (contract §20).
  if (ctx.opening !== undefined) yield ctx.opening
  let match = matchOperation(request.method, path, ctx.routes.router)
  if (match.kind === 'not-found') {
    if (options.passUnknownRoutes === true) return null
    // Your handlers without a route (decision 0042): tried inside the pipeline, then 404.
    if (ctx.routes.fallback !== undefined) match = ctx.routes.fallback
  }

  const startedAt = performance.now()
  const operation = match.kind === 'found' ? match.value : undefined
  const operationHeaders = operation?.headers?.({ url, settings: ctx.settings }) ?? null
  const keyed = operation?.access !== 'public'
  let session: SessionState | undefined
  let now = 0
  let caller: Caller | undefined
  let rateLimitHeaders: Record<string, string> | null = null
  let scenario = ''
  let target: string | undefined
  let phase: PhaseRef | undefined
  let response: SandboxResponse
  // The journal's operation id: the operation's, or the one its answer names (idOf).
  let operationId = operation === undefined || operation.idOf !== undefined ? null : operation.id
  try {
    const auth = parseAuthorization(request.headers.authorization)
    const requested = requestedSession(url, request.headers)
    // Accounts (contract §22): an account key lands in its account's sandbox, whatever is asked.
    let accountKey: ApiKeyInfo | undefined
    if (ctx.accountKeys !== undefined) {
      const found = auth.kind === 'bearer' ? ctx.accountKeys.findKey(auth.token) : undefined
      accountKey = found instanceof Promise ? ((yield found) as ApiKeyInfo | undefined) : found
      if (
        accountKey === undefined &&
        requested !== undefined &&
        ctx.accountKeys.isAccountSession(requested)
      )
        throw invalidParameter(
          requested === url.searchParams.get('__session') ? '__session' : 'X-Sandbox-Session',
          "names an account's sandbox: it is reached only with a key of that account",
        )
    }
    if (accountKey !== undefined) {
      target = accountKey.session ?? DEFAULT_SESSION
      caller = accountCaller(auth, accountKey)
    } else {
      let bound = auth.kind === 'bearer' ? ctx.state.keySession(auth.token) : undefined
      if (bound instanceof Promise) bound = (yield bound) as string | undefined
      target = selectSession({ requested, boundTo: bound })
      let identified = identify({ state: ctx.state, session: target, auth, request })
      if (identified instanceof Promise) identified = (yield identified) as Caller
      caller = identified
    }
    // Sessions belong to callers (decision 0026): without a valid key, `default` answers.
    let selected =
      caller.key === undefined
        ? ctx.state.session(DEFAULT_SESSION)
        : ctx.state.session(target ?? DEFAULT_SESSION, caller.owner)
    if (selected instanceof Promise) selected = (yield selected) as SessionState
    session = selected
    const ready = session.ready()
    if (ready instanceof Promise) yield ready
    let moment = session.now()
    if (moment instanceof Promise) moment = (yield moment) as number
    now = moment
    if (ctx.upstream?.inFront(session.id)) {
      // Upstream mode (contract §17): forwarded, replayed or answered here, journaled there.
      const done = (yield ctx.upstream.answer({
        request,
        url: url.toURL(),
        path,
        match,
        session,
        now,
        caller,
        startedAt,
        forward: options.forward,
        notFoundHint: path === '' || path === '/' ? bareBasePathHint(ctx, options) : '',
      })) as Awaited<ReturnType<UpstreamHook['answer']>>
      return new LazyAnswer(done.response, done.record, session)
    }
    let sticky = session.sticky()
    if (sticky instanceof Promise) sticky = (yield sticky) as Sticky
    scenario = typeof sticky === 'string' ? sticky : sticky.name
    if (request.method === 'OPTIONS' && match.kind === 'method-not-allowed') {
      // No operation answers OPTIONS, so a known path matches as "another method".
      rateLimitHeaders = (yield peekQuota(session, caller, now)) as Record<string, string>
      response = {
        status: 204,
        headers: { Allow: allowedMethods(match.allow).join(', ') },
        body: null,
      }
    } else {
      // A public added operation (decision 0042): no key, no quota, no rate-limit headers.
      let admitted: Admission = PUBLIC_ADMISSION
      if (keyed) {
        let taken = admit(session, caller, now)
        if (taken instanceof Promise) taken = (yield taken) as Admission
        admitted = taken
        rateLimitHeaders = admitted.headers
      }
      // A refusal (429 rate_limit_exceeded or api_key_banned) is answered without a throw: a client hammering
      // past its quota meets this branch on every request (decision 0021).
      if (admitted.refusal !== undefined) response = admitted.refusal.response
      else {
        // A public own handler (decision 0042) answers without a key; a keyed one requires it.
        const key = keyed ? requireKey(caller) : caller.key
        // Precedence (contract §19): the flag, the header, the key's scenario, the sticky one.
        const named = requestedScenario(url, request.headers) ?? key?.scenario
        if (named !== undefined) scenario = named
        let chosen =
          named === undefined && typeof sticky !== 'string'
            ? undefined
            : selectScenario(ctx.scenarios, scenario)
        // A timeline (contract §19): its phase answers. Never asked without one.
        if (chosen === undefined || chosen.timeline !== undefined) {
          let choice = choosePhase({
            scenarios: ctx.scenarios,
            session,
            named: chosen,
            sticky,
            now,
          })
          if (choice instanceof Promise) choice = (yield choice) as PhaseChoice
          chosen = choice.scenario
          phase = choice.phase
          scenario = chosen.name
        }
        const { operation, params } = route(
          match,
          request.method,
          url.pathname,
          path === '' || path === '/' ? bareBasePathHint(ctx, options) : '',
        )
        let ran = run(ctx, {
          request,
          url,
          operation,
          params,
          scenario: chosen,
          session,
          now,
          rateLimit: rateLimitHeaders ?? NO_HEADERS,
        })
        if (ran instanceof Promise) ran = (yield ran) as SandboxResponse
        response = ran
        if (operation.idOf !== undefined) operationId = operation.idOf(ran)
      }
    }
  } catch (error) {
    // Hook (issue 13, decision 0014): a shared state found what this request read
    // from its cache out of date (nothing was counted); it has refreshed it: run again.
    if (error instanceof StaleStateError && attempt < STALE_RETRIES)
      return handleRequest(ctx, request, options, attempt + 1)
    response = toResponse(ctx, error)
  }
  // The `errorCodes` setting (contract §16): the deployment's names for the codes, when any.
  if (ctx.settings.renamesErrorCodes)
    response = renameErrorCode(response, ctx.settings.fidelity.errorCodes)
  // Without a valid key, `default` answered; a session the request names that exists
  // journals it (contract §18 judges "in the same session"), neither opened, touched
  // nor evicted by it (decisions 0026, 0047). Off the path of a valid key.
  if (
    caller !== undefined &&
    caller.key === undefined &&
    target !== undefined &&
    target !== DEFAULT_SESSION
  ) {
    let named = ctx.state.openedSession(target)
    if (named instanceof Promise) named = (yield named) as SessionState | undefined
    if (named !== undefined) {
      session = named
      now = 0
      scenario = ''
    }
  }
  // A request refused before its session was known is journaled in `default`.
  if (session === undefined) {
    let fallback = ctx.state.session(DEFAULT_SESSION)
    if (fallback instanceof Promise) fallback = (yield fallback) as SessionState
    session = fallback
  }
  if (now === 0) {
    let moment = session.now()
    if (moment instanceof Promise) moment = (yield moment) as number
    now = moment
  }
  if (scenario === '') {
    let sticky = session.sticky()
    if (sticky instanceof Promise) sticky = (yield sticky) as Sticky
    scenario = stickyName(sticky)
  }
  const auth = caller?.auth ?? parseAuthorization(request.headers.authorization)
  let done = finish(ctx, {
    request,
    url,
    response,
    session,
    now,
    operation: operationId,
    operationHeaders,
    rateLimitHeaders,
    // An account key is journaled by its id (contract §22): no journal, here or in a store, holds it.
    token:
      caller?.key?.source === 'account'
        ? caller.key.key
        : auth.kind === 'bearer'
          ? auth.token
          : undefined,
    keyValid: caller?.key !== undefined,
    scenario,
    phase,
    plan: caller?.key?.plan,
    startedAt,
  })
  if (done instanceof Promise) done = (yield done) as Awaited<typeof done>
  return new LazyAnswer(done.response, done.record, session)
}
