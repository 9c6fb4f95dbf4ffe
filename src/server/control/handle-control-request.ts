import type { IncomingMessage, ServerResponse } from 'node:http'
import * as z from 'zod/mini'
import { KeyExistsError, KeyOptionError, SCENARIO_KEY_PREFIX } from '../../auth/key-registry.js'
import { isValidKeyText } from '../../auth/parse-authorization.js'
import { MAX_CLOCK_MS } from '../../clock/clock.js'
import { isPlanName, LIMITS, PLAN_LIMITS, PLAN_NAMES } from '../../contract/index.js'
import { madeWhenRead } from '../../contract/made-when-read.js'
import { useEnglishZodMessages } from '../../contract/zod-messages.js'
import { ApiError } from '../../http/api-error.js'
import { invalidParameter, methodNotAllowed, routeNotFound } from '../../http/errors.js'
import { jsonResponse } from '../../http/json-response.js'
import { singleParam } from '../../http/query.js'
import { type BodySchema, readJson } from '../../http/read-json.js'
import { createRouter } from '../../http/router.js'
import type { SandboxResponse } from '../../http/types.js'
import { toHAR } from '../../journal/to-har.js'
import { requestedSession } from '../../pipeline/select-session.js'
import type { SandboxCore } from '../../sandbox/create-sandbox-core.js'
import { judgeToolsFor } from '../../sandbox/judge-journal.js'
import {
  resolveSticky,
  type TimelineSetting,
  timelineStatus,
} from '../../sandbox/resolve-sticky.js'
import { INLINE_TIMELINE, stickyName } from '../../scenarios/timeline.js'
import { DEFAULT_SESSION, SESSION_ID, type SessionState } from '../../state/sandbox-state.js'
import { accountOf } from '../accounts/account-access.js'
import { ACCOUNT_ID, ACCOUNT_LIMITS, type AccountService } from '../accounts/account-service.js'
import { readRequestBody } from '../read-request-body.js'
import { writeNow } from '../write-sandbox-response.js'
import { answerMode, MODE_BODY } from './answer-mode.js'
import { checkControlOrigin } from './check-control-origin.js'
import type { ControlAccess } from './create-control-access.js'
import {
  coverRequests,
  expectRequests,
  listRequests,
  pactRequests,
  reportRequests,
} from './judge-routes.js'
import { showKey } from './mask-key.js'
import { EXPECT_BODY } from './read-request-filters.js'
import { resetsEverySession } from './resets-every-session.js'

/** The prefix of the control API (contract §9). */
export const CONTROL_PREFIX = '/__sandbox'

/** What the control API steers. */
export interface ControlContext {
  sandbox: SandboxCore<string>
  /** Loopback or the admin token, with wrong tokens counted per address. */
  access: ControlAccess
  /** Host names besides the loopback ones that may reach the control API (`--allowed-host`). */
  allowedHosts: readonly string[]
  /** The OpenAPI document's text, when the package has one. */
  openApiDocument: string | undefined
  /** Accounts (`--accounts`, contract §22); undefined when they are off. */
  accounts?: AccountService | undefined
}

/** One control request: the session it acts on, and its JSON body on demand. */
interface ControlRequest {
  req: IncomingMessage
  url: URL
  params: Record<string, string>
  /** The session the request selected (`__session` / `X-Sandbox-Session`), `default` otherwise: the state seam, awaited. */
  session: SessionState
  /** The JSON body read by `schema`; 400 `validation_failed` naming `subject` and each bad field. */
  body<T>(schema: ControlBody<T>): Promise<T>
  /** The account acting (its own key or the portal cookie), undefined for the admin or loopback. */
  account: string | undefined
}

/** A control route's body: its schema, how messages name it, and its fields (strict: no others). */
interface ControlBody<T> {
  schema: BodySchema<T>
  subject: string
  fields: readonly string[]
}

const controlBody = <T>(
  subject: string,
  schema: BodySchema<T> & { def: { shape: object } },
): ControlBody<T> => ({ schema, subject, fields: Object.keys(schema.def.shape) })

type ControlHandler = (ctx: ControlContext, request: ControlRequest) => Promise<SandboxResponse>

/**
 * How far a control route reaches (contract §22): `session` acts on the one
 * session selected (an account's key reaches its own sandbox's), `beyond`
 * acts on more than one session or on the server (the admin's only), `none`
 * acts on no session (the OpenAPI document: anyone allowed in).
 */
export type ControlScope = 'session' | 'beyond' | 'none'

interface ControlRoute {
  scope: ControlScope
  run: ControlHandler
}

const inSession = (run: ControlHandler): ControlRoute => ({ scope: 'session', run })
const beyondSession = (run: ControlHandler): ControlRoute => ({ scope: 'beyond', run })
const anySession = (run: ControlHandler): ControlRoute => ({ scope: 'none', run })

const noContent = (): SandboxResponse => ({ status: 204, headers: {}, body: null })
const clockBody = async (session: SessionState) => {
  const { now, frozen } = await session.clock()
  return { now: new Date(now).toISOString(), frozen }
}
const scenarioBody = async (ctx: ControlContext, session: SessionState) => {
  const sticky = await session.sticky()
  const name = stickyName(sticky)
  // Each scenario with the key that selects it (contract §19): the keys listing leaves them out.
  const all = ctx.sandbox.scenarios.list().map(({ name, description, timeline }) => ({
    name,
    description,
    key: `${SCENARIO_KEY_PREFIX}${name}`,
    ...(timeline === undefined ? {} : { timeline: timeline.phases }),
  }))
  const status =
    typeof sticky === 'string' ? undefined : timelineStatus(sticky, (await session.clock()).now)
  return {
    name,
    description:
      status !== undefined && name === INLINE_TIMELINE
        ? 'A timeline set through the control API or the options.'
        : (all.find((s) => s.name === name)?.description ?? ''),
    ...(status === undefined ? {} : { timeline: status }),
    scenarios: all,
  }
}

/** A time the clock refuses (not a date, out of range): 400, and the clock is untouched. */
const checkClock = async (call: () => unknown): Promise<void> => {
  try {
    await call()
  } catch (error) {
    if (!(error instanceof TypeError)) throw error
    throw new ApiError('validation_failed', error.message, {
      details: [{ field: '(body)', message: error.message }],
    })
  }
}

// The details are the schemas' own words or describeIssue's (src/http), never zod's; zod's
// English locale stays for the server's other readers of zod messages.
useEnglishZodMessages()
// Every control body is strict: an unknown field is a 400 naming it and the fields there are.
/** The bodies the control API reads, each made on first use (a start makes none). */
const BODIES = madeWhenRead({
  clock: () =>
    controlBody(
      'The clock change',
      z
        .strictObject({
          // Forward only, within the Date range: back is a `now` (an advance past the range, from a
          // clock that is already ahead, is refused by the clock itself).
          advanceMs: z.optional(
            z.number().check(
              // Not z.int(): it calls 1e20 (a whole number, past 2^53) not an integer.
              z.refine(Number.isInteger, { error: 'must be a whole number of milliseconds' }),
              z.gte(0, {
                error:
                  'must be 0 or more: the clock only moves forward (send "now" to set an earlier time)',
              }),
              z.lte(MAX_CLOCK_MS, {
                error: `must be at most ${MAX_CLOCK_MS} (the Date range, about 273,790 years)`,
              }),
            ),
          ),
          now: z.optional(z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' })),
          realTime: z.optional(z.literal(true, { error: 'must be true (back to real time)' })),
        })
        .check((ctx) => {
          const sent = (['advanceMs', 'now', 'realTime'] as const).filter(
            (name) => ctx.value[name] !== undefined,
          )
          if (sent.length !== 1)
            ctx.issues.push({
              code: 'custom',
              input: ctx.value,
              message: `send exactly one of advanceMs, now and realTime, got ${sent.length === 0 ? 'none' : sent.join(' and ')}`,
            })
        }),
    ),
  scenario: () =>
    controlBody(
      'The scenario',
      z
        .strictObject({
          name: z.optional(z.string().check(z.minLength(1))),
          // Each phase is checked by resolveSticky, which words every field (timeline[2].forMs).
          timeline: z.optional(z.array(z.unknown(), { error: 'must be a list of phases' })),
          repeat: z.optional(z.boolean({ error: 'must be true or false' })),
        })
        .check((ctx) => {
          const { name, timeline, repeat } = ctx.value
          if ((name === undefined) === (timeline === undefined))
            ctx.issues.push({
              code: 'custom',
              input: ctx.value,
              message: `send exactly one of name and timeline, got ${name === undefined ? 'none' : 'both'}`,
            })
          else if (repeat !== undefined && timeline === undefined)
            ctx.issues.push({
              code: 'custom',
              input: repeat,
              path: ['repeat'],
              message: 'goes with a timeline only',
            })
        }),
    ),
  key: () => {
    const limit = z.optional(z.number().check(z.int(), z.gte(1), z.lte(Number.MAX_SAFE_INTEGER)))
    return controlBody(
      'The key',
      z
        .strictObject({
          plan: z.string(),
          key: z.optional(
            z.string().check(
              z.refine(isValidKeyText, {
                error: 'must be 1 to 200 characters of A-Z a-z 0-9 - . _ ~ + / (RFC 6750)',
              }),
            ),
          ),
          perMinute: limit,
          perDay: limit,
          session: z.optional(z.string()),
          scenario: z.optional(z.string().check(z.minLength(1))),
        })
        .check(
          z.superRefine((body, ctx) => {
            // Custom limits are the enterprise plan's; an unknown plan is answered as unknown_plan later.
            if (!isPlanName(body.plan) || body.plan === 'enterprise') return
            for (const field of ['perMinute', 'perDay'] as const)
              if (body[field] !== undefined)
                ctx.addIssue({
                  code: 'custom',
                  input: body[field],
                  path: [field],
                  message: `must be left out for a ${body.plan} key (its plan's limits are fixed; custom limits are for enterprise keys)`,
                })
          }),
        ),
    )
  },
  accountKey: () => {
    const limit = z.optional(z.number().check(z.int(), z.gte(1), z.lte(Number.MAX_SAFE_INTEGER)))
    return controlBody(
      'The key',
      z
        .strictObject({
          plan: z.enum(['free', 'pro', 'business', 'enterprise'], {
            error: 'must be free, pro, business or enterprise',
          }),
          name: z.optional(
            z.string().check(z.minLength(1), z.maxLength(ACCOUNT_LIMITS.maxKeyName)),
          ),
          perMinute: limit,
          perDay: limit,
        })
        .check(
          z.superRefine((body, ctx) => {
            if (body.plan === 'enterprise') return
            for (const field of ['perMinute', 'perDay'] as const)
              if (body[field] !== undefined)
                ctx.addIssue({
                  code: 'custom',
                  input: body[field],
                  path: [field],
                  message: `must be left out for a ${body.plan} key (custom limits are for enterprise keys)`,
                })
          }),
        ),
    )
  },
  mode: () => controlBody('The mode', MODE_BODY.schema),
  expect: () => controlBody('The match', EXPECT_BODY.schema),
})

/** Decodes a path parameter; 404 for broken percent-encoding, as the API does. */
const pathParam = (value: string | undefined, what: string): string => {
  try {
    return decodeURIComponent(value ?? '')
  } catch {
    throw new ApiError('route_not_found', `The ${what} in the path is not valid percent-encoding.`)
  }
}

/** The control API's routes below /__sandbox, on the same router as the API's. */
const CONTROL_ROUTER = createRouter<ControlRoute>()
  // GET /__sandbox/ (the dashboard) is answered by src/server/dashboard before this router.
  .add(
    'GET',
    '/openapi.json',
    anySession(async (ctx) => {
      if (ctx.openApiDocument === undefined)
        throw new ApiError('route_not_found', 'This build of the sandbox has no OpenAPI document.')
      return {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
        body: ctx.openApiDocument,
      }
    }),
  )
  .add(
    'POST',
    '/reset',
    inSession(async (ctx, { session, url }) => {
      if (!resetsEverySession(url, session)) await session.reset()
      else await ctx.sandbox.reset({ sessions: 'all' })
      return noContent()
    }),
  )
  .add(
    'GET',
    '/scenario',
    inSession(async (ctx, { session }) => jsonResponse(200, await scenarioBody(ctx, session))),
  )
  .add(
    'PUT',
    '/scenario',
    inSession(async (ctx, { session, body }) => {
      const { name, timeline, repeat } = await body(BODIES.scenario)
      // 400 unknown_scenario, naming the valid ones, as the registry words it; a timeline's
      // phases each named by field. A timeline runs from now, by the session's clock.
      const { now } = await session.clock()
      const setting = name ?? { timeline: timeline as TimelineSetting['timeline'], repeat }
      await session.setSticky(resolveSticky(ctx.sandbox.scenarios, setting, now))
      return jsonResponse(200, await scenarioBody(ctx, session))
    }),
  )
  .add(
    'GET',
    '/mode',
    beyondSession(async (ctx, { session }) => answerMode(ctx.sandbox, session.id)),
  )
  .add(
    'PUT',
    '/mode',
    beyondSession(async (ctx, { session, body }) =>
      answerMode(ctx.sandbox, session.id, await body(BODIES.mode)),
    ),
  )
  .add(
    'GET',
    '/clock',
    inSession(async (_ctx, { session }) => jsonResponse(200, await clockBody(session))),
  )
  .add(
    'POST',
    '/clock',
    inSession(async (_ctx, { session, body }) => {
      const { advanceMs, now, realTime } = await body(BODIES.clock)
      if (advanceMs !== undefined) await checkClock(() => session.advanceClock(advanceMs))
      if (now !== undefined) await checkClock(() => session.setClock(now))
      if (realTime === true) await session.useRealTime()
      return jsonResponse(200, await clockBody(session))
    }),
  )
  .add(
    'GET',
    '/keys',
    inSession(async (_ctx, { session, account }) =>
      jsonResponse(
        200,
        (await session.listKeys()).map((key) => showKey(key, account !== undefined)),
      ),
    ),
  )
  .add(
    'POST',
    '/keys',
    inSession(async (ctx, { session: selected, body, account }) => {
      const { plan, session: target, ...rest } = await body(BODIES.key)
      // An account's own control (contract §22): keys of its own sandbox, never enterprise.
      if (
        account !== undefined &&
        (plan === 'enterprise' || (target !== undefined && target !== account))
      )
        throw new ApiError(
          'forbidden',
          plan === 'enterprise'
            ? 'Enterprise keys come from the admin (POST /__sandbox/accounts/{id}/keys).'
            : "An account's key makes keys for its own sandbox only: leave out session.",
        )
      if (!isPlanName(plan))
        throw new ApiError(
          'unknown_plan',
          `Unknown plan "${plan}". Use one of ${PLAN_NAMES.join(', ')}.`,
        )
      // The code a name gets everywhere (the flag, PUT /scenario), the field named in details.
      if (rest.scenario !== undefined && ctx.sandbox.scenarios.get(rest.scenario) === undefined)
        throw new ApiError(
          'unknown_scenario',
          `Unknown scenario "${rest.scenario}". Valid scenarios: ${ctx.sandbox.scenarios
            .list()
            .map((s) => s.name)
            .join(', ')}.`,
          { details: [{ field: 'scenario', message: 'is not a registered scenario' }] },
        )
      if (target !== undefined && !SESSION_ID.test(target))
        throw invalidParameter(
          'session',
          'must be a session id: 1-64 characters of A-Z a-z 0-9 . _ -',
        )
      // A key created with `session` lands in that session, whichever session the call selected.
      const session = target === undefined ? selected : await ctx.sandbox.state.session(target)
      try {
        const info = await session.createKey({ ...rest, plan })
        return jsonResponse(201, {
          key: info.key,
          plan: info.plan,
          limits: info.limits,
          session: info.session,
          ...(info.scenario === undefined ? {} : { scenario: info.scenario }),
        })
      } catch (error) {
        if (error instanceof KeyExistsError)
          throw new ApiError(
            'key_exists',
            `An API key "${rest.key ?? ''}" exists already. Revoke it first or choose another key.`,
            { details: [{ field: 'key', message: 'exists already' }] },
          )
        if (!(error instanceof KeyOptionError)) throw error
        throw new ApiError('validation_failed', error.message, {
          details: [{ field: 'key', message: error.message }],
        })
      }
    }),
  )
  .add(
    'DELETE',
    '/keys/{key}',
    inSession(async (_ctx, { session, params }) => {
      const key = pathParam(params.key, 'key')
      if (!(await session.revokeKey(key)))
        throw new ApiError('key_not_found', `No API key "${key}" exists.`)
      return noContent()
    }),
  )
  .add(
    'GET',
    '/requests',
    inSession(async (ctx, { session, url }) =>
      listRequests(session, url, judgeToolsFor(ctx.sandbox.operations)),
    ),
  )
  // Issue 23: assertions, the client-behaviour report and coverage, over the seam's journal.
  .add(
    'POST',
    '/requests/expect',
    inSession(async (ctx, { session, body }) =>
      expectRequests(session, await body(BODIES.expect), judgeToolsFor(ctx.sandbox.operations)),
    ),
  )
  .add(
    'GET',
    '/report',
    inSession(async (_ctx, { session }) => reportRequests(session)),
  )
  .add(
    'GET',
    '/coverage',
    inSession(async (ctx, { session }) => coverRequests(session, ctx.sandbox.operations)),
  )
  // Contract §21: the journal as a Pact v4 file (docs/pact.md).
  .add(
    'GET',
    '/pact',
    inSession(async (ctx, { session, url }) => pactRequests(session, url, ctx.sandbox.openapi)),
  )
  // The journal as an HTTP Archive: opens in browser devtools, replays with routeFromHAR.
  .add(
    'GET',
    '/requests.har',
    inSession(async (_ctx, { session }) =>
      jsonResponse(200, toHAR(await session.listJournal()), {
        'Content-Disposition': 'attachment; filename="petstore-sandbox.har"',
      }),
    ),
  )
  .add(
    'DELETE',
    '/requests',
    inSession(async (_ctx, { session }) => {
      await session.clearJournal()
      return noContent()
    }),
  )
  .add(
    'GET',
    '/sessions',
    beyondSession(async (ctx) => jsonResponse(200, await ctx.sandbox.state.listSessions())),
  )
  .add(
    'DELETE',
    '/sessions/{id}',
    beyondSession(async (ctx, { params }) => {
      const id = pathParam(params.id, 'session id')
      if (id === DEFAULT_SESSION)
        throw invalidParameter('session', 'is "default", which is never dropped; reset it instead')
      if (!(await ctx.sandbox.state.dropSession(id)))
        throw new ApiError('route_not_found', `No session "${id}" exists.`)
      return noContent()
    }),
  )
  // Accounts (contract §22): the admin's routes.
  .add(
    'POST',
    '/invites',
    beyondSession(async (ctx) => jsonResponse(201, { code: await accountsOn(ctx).createInvite() })),
  )
  .add(
    'GET',
    '/accounts',
    beyondSession(async (ctx, { url }) => {
      const after = singleParam(url.searchParams, 'after')
      const limitText = singleParam(url.searchParams, 'limit')
      const limit = limitText === undefined ? 50 : Number(limitText)
      if (!/^[0-9]{1,3}$/.test(limitText ?? '50') || limit < 1 || limit > ACCOUNT_LIMITS.maxPage)
        throw invalidParameter(
          'limit',
          `must be a whole number from 1 to ${ACCOUNT_LIMITS.maxPage}`,
        )
      const page = await accountsOn(ctx).listAccounts(after, limit)
      const next =
        page.last !== undefined && page.accounts.length === limit
          ? `${CONTROL_PREFIX}/accounts?limit=${limit}&after=${page.last}`
          : undefined
      return jsonResponse(
        200,
        { accounts: page.accounts, total: page.total, next: next ?? null },
        next === undefined ? {} : { Link: `<${next}>; rel="next"` },
      )
    }),
  )
  .add(
    'DELETE',
    '/accounts/{id}',
    beyondSession(async (ctx, { params }) => {
      const id = pathParam(params.id, 'account id')
      await accountsOn(ctx).deleteAccount(id)
      // Its sandbox goes with it.
      if (ACCOUNT_ID.test(id)) await ctx.sandbox.state.dropSession(id)
      return noContent()
    }),
  )
  .add(
    'POST',
    '/accounts/{id}/keys',
    beyondSession(async (ctx, { params, body }) => {
      const id = pathParam(params.id, 'account id')
      const { name, plan, perMinute, perDay } = await body(BODIES.accountKey)
      const limits = { ...PLAN_LIMITS[plan] }
      if (perMinute !== undefined) limits.perMinute = perMinute
      if (perDay !== undefined) limits.perDay = perDay
      return jsonResponse(
        201,
        await accountsOn(ctx).createKey(id, { name: name ?? plan, plan, limits }),
      )
    }),
  )

/** Accounts are on, or the route answers 404 saying how to turn them on. */
const accountsOn = (ctx: ControlContext): AccountService => {
  if (ctx.accounts === undefined)
    throw new ApiError(
      'route_not_found',
      'Accounts are off: start the server with --accounts open or --accounts invite (and --admin-token).',
    )
  return ctx.accounts
}

/**
 * Every control route with how far it reaches (contract §22): what the test
 * of an account's own control walks, so a new route is covered by it.
 *
 * @example
 * controlRoutes().filter((r) => r.scope === 'beyond')
 */
export const controlRoutes = (): { method: string; template: string; scope: ControlScope }[] =>
  CONTROL_ROUTER.routes().flatMap(({ template, methods }) =>
    methods.map((method) => {
      const found = CONTROL_ROUTER.match(method, template)
      return {
        method,
        template,
        scope: found.kind === 'found' ? found.value.scope : ('beyond' as const),
      }
    }),
  )

/** The 404's hint: every route, as the API's 404 for its base path names its own. */
const CONTROL_ROUTES = ` The control API's routes: ${CONTROL_ROUTER.routes()
  .map(({ template, methods }) => `${methods.join('|')} ${CONTROL_PREFIX}${template}`)
  .join(', ')}; the dashboard is GET ${CONTROL_PREFIX}/.`

const answer = async (ctx: ControlContext, req: IncomingMessage): Promise<SandboxResponse> => {
  const foreign = checkControlOrigin(req, ctx.allowedHosts)
  if (foreign !== undefined) throw foreign
  // Accounts (contract §22): an account's own key or portal cookie reaches its own sandbox.
  const account =
    ctx.accounts === undefined ? undefined : (await accountOf(ctx.accounts, req))?.accountId
  if (account === undefined) {
    const denied = ctx.access.check(req)
    if (denied !== undefined) throw denied
  }
  const target = req.url ?? '/'
  const url = new URL(target, 'http://control.invalid')
  // The path as sent: the URL parser would resolve `.` and `..` (also written %2E), and
  // every id the API accepts (sessions `.` and `..`, keys too) must be reachable (issue 24).
  const query = target.indexOf('?')
  const path = (query === -1 ? target : target.slice(0, query)).slice(CONTROL_PREFIX.length) || '/'
  const method = req.method ?? 'GET'
  const match = CONTROL_ROUTER.match(method === 'HEAD' ? 'GET' : method, path)
  if (match.kind === 'not-found') throw routeNotFound(`${CONTROL_PREFIX}${path}`, CONTROL_ROUTES)
  if (match.kind === 'method-not-allowed')
    throw methodNotAllowed(method, `${CONTROL_PREFIX}${path}`, match.allow)
  if (account !== undefined && (match.value.scope === 'beyond' || url.searchParams.has('sessions')))
    throw new ApiError(
      'forbidden',
      `${method} ${CONTROL_PREFIX}${path} reaches beyond one account's sandbox: only the admin token may call it.`,
    )
  // An account acts on its own sandbox, whatever __session or X-Sandbox-Session say.
  const session =
    account !== undefined
      ? await ctx.sandbox.state.session(account, `account:${account}`)
      : await ctx.sandbox.state.session(
          requestedSession(url, req.headers as Record<string, string | undefined>) ??
            DEFAULT_SESSION,
        )
  let read: Promise<{ headers: IncomingMessage['headers']; body: Uint8Array | null }> | undefined
  const body = async <T>({ schema, subject, fields }: ControlBody<T>): Promise<T> => {
    read ??= readRequestBody(req, LIMITS.maxBodyBytes).then((result) => ({
      headers: req.headers,
      // An oversized or broken body is answered 413 by readJson: one byte over the cap says so.
      body: result.kind === 'body' ? result.body : new Uint8Array(LIMITS.maxBodyBytes + 1),
    }))
    const { headers, body: bytes } = await read
    return readJson(
      { headers: headers as Record<string, string | undefined>, body: bytes },
      schema,
      { subject, fields, showGiven: true },
    )
  }
  return match.value.run(ctx, { req, url, params: match.params, session, body, account })
}

/**
 * Answers a request below `/__sandbox` (contract §9, §12): no API key, no rate
 * limit, loopback or admin token only; `__session` / `X-Sandbox-Session`
 * select the session acted on; errors are the API's JSON Error bodies.
 *
 * @example
 * if (req.url?.startsWith(CONTROL_PREFIX)) await handleControlRequest(ctx, req, res)
 */
export const handleControlRequest = async (
  ctx: ControlContext,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<SandboxResponse> => {
  let response: SandboxResponse
  try {
    response = await answer(ctx, req)
  } catch (error) {
    if (!(error instanceof ApiError)) console.error('[petstore-sandbox] control API error:', error)
    response = (
      error instanceof ApiError
        ? error
        : new ApiError('internal_error', 'The control API failed to answer this request.')
    ).toResponse()
  }
  response.headers['Cache-Control'] ??= 'no-store'
  // Contract §14: nothing under /__sandbox is sniffed, framed, or allowed more than it needs.
  response.headers['Content-Security-Policy'] ??= "default-src 'none'; frame-ancestors 'none'"
  response.headers['X-Content-Type-Options'] = 'nosniff'
  response.headers['X-Frame-Options'] = 'DENY'
  writeNow(res, response)
  return response
}
