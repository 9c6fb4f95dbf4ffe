import type { ApiKeyInfo, KeyRegistry } from '../auth/key-registry.js'
import { parseAuthorization } from '../auth/parse-authorization.js'
import { PLAN_LIMITS } from '../contract/plans.js'
import type { PetStore } from '../db/pet-store.js'
import type { OperationSettings } from '../handlers/operation.js'
import { SANDBOX_QUERY_PARAMS, singleParam } from '../handlers/query.js'
import { matchRoute, ROUTES } from '../handlers/routes.js'
import type { RateLimiter } from '../rate-limit/rate-limiter.js'
import type { Scenario } from '../scenarios/define-scenario.js'
import { runScenario } from '../scenarios/run-scenario.js'
import type { ScenarioRegistry } from '../scenarios/scenario-registry.js'
import { ApiError } from './api-error.js'
import type { SandboxClock } from './clock.js'
import type { RequestJournal } from './journal.js'
import { redactAuthorization } from './journal.js'
import type { SandboxRequest, SandboxResponse } from './types.js'

/** Who is calling: the key's record, or nobody (an anonymous caller). */
export interface Caller {
  key: ApiKeyInfo | undefined
  /** The rate-limit bucket this request counts against. */
  bucket: string
}

/** The seam to the data: which store a request reads and writes. */
export type StoreResolver = (input: {
  caller: Caller
  scenario: Scenario
}) => PetStore | Promise<PetStore>

/** The parts of a sandbox the pipeline uses. */
export interface PipelineState {
  settings: OperationSettings
  /** Restricts the sandbox to one origin (from a full `baseUrl`); undefined matches any origin. */
  origin: string | undefined
  clock: SandboxClock
  keys: KeyRegistry
  limiter: RateLimiter
  scenarios: ScenarioRegistry
  /** The sticky scenario's name. */
  stickyScenario: () => string
  journal: RequestJournal
  resolveStore: StoreResolver
  /** The next number of a scenario's seeded random stream (per sandbox, rewound by reset). */
  scenarioRandom: (scenario: Scenario) => number
  /** Reports a programming error (the client gets 500 internal_error). */
  onError: (error: unknown) => void
}

/** How `handle` treats a request (issue 15: the user's own handlers). */
export interface HandleOptions {
  /**
   * Resolve null, before authentication, when no API route matches the path
   * (instead of 404 route_not_found), so the runtime can offer the request to
   * the user's own handlers first.
   */
  passUnknownRoutes?: boolean
  /** Appended to the 404 for the bare base path (`/v1`): the server names its dashboard and OpenAPI document. */
  basePathHint?: string
}

const WWW_AUTHENTICATE = 'Bearer realm="petstore"'

// RFC 6750 §3.1: error="invalid_token" only when a bearer token was sent.
const unauthorized = (
  code: 'missing_api_key' | 'malformed_authorization' | 'invalid_api_key',
  tokenSent: boolean,
): ApiError => {
  const challenge = tokenSent ? `${WWW_AUTHENTICATE}, error="invalid_token"` : WWW_AUTHENTICATE
  const message = {
    missing_api_key: 'Send your API key as "Authorization: Bearer <API_KEY>".',
    malformed_authorization:
      'The Authorization header must be "Bearer <API_KEY>" with exactly one token.',
    invalid_api_key: 'The API key is unknown or has been revoked.',
  }[code]
  return new ApiError(code, message, { headers: { 'WWW-Authenticate': challenge } })
}

/** The base path of a request URL, or undefined when the request is not the sandbox's. */
const ownPath = (state: PipelineState, url: URL): string | undefined => {
  if (state.origin !== undefined && url.origin !== state.origin) return undefined
  const base = state.settings.basePath
  if (url.pathname === base) return ''
  return url.pathname.startsWith(`${base}/`) ? url.pathname.slice(base.length) : undefined
}

/**
 * The contract, once, in this order: authentication and the rate limit (an
 * exhausted anonymous bucket answers 429 before the 401, decision 0004), the
 * scenario's name, routing (404, 405), the scenario's hooks, then input
 * validation and the operation. Every answer gets the route's and the
 * rate-limit headers and a journal entry. Returns null for a request outside
 * the API's base path, so the runtime can pass it on.
 */
export const handleRequest = async (
  state: PipelineState,
  request: SandboxRequest,
  options: HandleOptions = {},
): Promise<SandboxResponse | null> => {
  let url: URL
  try {
    url = new URL(request.url)
  } catch {
    return null
  }
  const path = ownPath(state, url)
  if (path === undefined) return null

  const match = matchRoute(path)
  // Before auth: the contract's routes are the sandbox's, every other path is the user's.
  if (match === undefined && options.passUnknownRoutes === true) return null
  const routeHeaders = match?.route.headers?.({ url, settings: state.settings }) ?? {}
  let rateLimitHeaders: Record<string, string> = {}
  let scenarioName = state.stickyScenario()
  let caller: Caller | undefined
  let response: SandboxResponse

  try {
    const now = state.clock.now()
    // Authentication, then the rate limit. An unauthenticated request counts
    // against its address's anonymous bucket, which also slows key guessing.
    const auth = parseAuthorization(request.headers.authorization)
    const key = auth.kind === 'bearer' ? state.keys.lookup(auth.token) : undefined
    caller = {
      key,
      bucket: key !== undefined ? `key:${key.key}` : `anon:${request.clientAddress ?? 'shared'}`,
    }
    // Only keys can be banned: an anonymous bucket may be shared by every caller (decision 0004).
    const decision = state.limiter.take({
      bucket: caller.bucket,
      limits: key?.limits ?? PLAN_LIMITS.free,
      now,
      bannable: key !== undefined,
    })
    rateLimitHeaders = decision.headers
    if (!decision.allowed) {
      const banned = decision.code === 'api_key_banned'
      throw new ApiError(
        banned ? 'api_key_banned' : 'rate_limit_exceeded',
        banned
          ? 'This API key kept sending requests while rate limited and is banned for a while. Back off exponentially.'
          : 'Rate limit exceeded. Retry after the time given in the Retry-After header.',
        { headers: { 'Retry-After': String(decision.retryAfterSeconds ?? 1) } },
      )
    }
    if (key === undefined) {
      throw unauthorized(
        auth.kind === 'missing'
          ? 'missing_api_key'
          : auth.kind === 'malformed'
            ? 'malformed_authorization'
            : 'invalid_api_key',
        auth.kind === 'bearer' || (auth.kind === 'malformed' && auth.tokenSent),
      )
    }

    // The scenario: query flag, then header, then the sticky one.
    const requested =
      singleParam(url.searchParams, '__scenario') ?? request.headers['x-sandbox-scenario']?.trim()
    if (requested !== undefined) scenarioName = requested
    const scenario = state.scenarios.get(scenarioName)
    if (scenario === undefined) {
      const names = state.scenarios
        .list()
        .map((s) => s.name)
        .join(', ')
      throw new ApiError(
        'unknown_scenario',
        `Unknown scenario "${scenarioName}". Valid scenarios: ${names}.`,
      )
    }

    // Routing.
    if (match === undefined) {
      // The bare base path is where people start exploring: name the routes there.
      const bare = path === '' || path === '/'
      const base = state.settings.basePath
      const routes = bare
        ? ` The API's routes: ${ROUTES.map((route) => `${base}${route.template}`).join(', ')}.`
        : ''
      const hint = bare && options.basePathHint !== undefined ? ` ${options.basePathHint}` : ''
      throw new ApiError('route_not_found', `No route matches ${url.pathname}.${routes}${hint}`)
    }
    const operation = match.route.methods[request.method]
    if (operation === undefined) {
      const allow = Object.keys(match.route.methods).join(', ')
      throw new ApiError(
        'method_not_allowed',
        `${request.method} is not allowed on ${url.pathname}. Allowed: ${allow}.`,
        {
          headers: { Allow: allow },
        },
      )
    }

    // The scenario's hooks (delay, fault, forced answer), then the operation on its store.
    const scenarioContext = {
      operationId: operation.id,
      request,
      url,
      clock: state.clock,
      settings: state.settings,
      rateLimit: rateLimitHeaders,
      random: () => state.scenarioRandom(scenario),
    }
    const knownCaller = caller
    response = await runScenario(scenario, scenarioContext, async () =>
      operation.run({
        request,
        url,
        params: match.params,
        store: await state.resolveStore({ caller: knownCaller, scenario }),
        clock: state.clock,
        settings: state.settings,
      }),
    )
  } catch (error) {
    if (error instanceof ApiError) {
      response = error.toResponse()
    } else {
      state.onError(error)
      response = new ApiError(
        'internal_error',
        'The sandbox failed to answer this request.',
      ).toResponse()
    }
  }

  response.headers = { ...routeHeaders, ...rateLimitHeaders, ...response.headers }
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined)
      headers[name] = name === 'authorization' ? redactAuthorization(value) : value
  }
  state.journal.record({
    time: new Date(state.clock.now()).toISOString(),
    method: request.method,
    url: `${url.pathname}${url.search}`,
    status: response.status,
    scenario: scenarioName,
    plan: caller?.key?.plan,
    headers,
  })
  return response
}

export { SANDBOX_QUERY_PARAMS }
