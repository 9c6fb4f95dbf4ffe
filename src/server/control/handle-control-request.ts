import type { IncomingMessage, ServerResponse } from 'node:http'
import { z } from 'zod'
import { KeyOptionError } from '../../auth/key-registry.js'
import { isPlanName, PLAN_NAMES } from '../../contract/plans.js'
import { ApiError, jsonResponse } from '../../core/api-error.js'
import type { SandboxResponse } from '../../core/types.js'
import type { SandboxCore } from '../../sandbox/create-sandbox-core.js'
import { writeNow } from '../write-sandbox-response.js'
import { checkControlAccess } from './check-control-access.js'
import { checkControlOrigin } from './check-control-origin.js'
import { showKey } from './mask-key.js'
import { readControlBody } from './read-control-body.js'
import { CONTROL_PAGE_CSP, renderControlPage } from './render-control-page.js'

/** The prefix of the control API (contract §9). */
export const CONTROL_PREFIX = '/__sandbox'

/** What the control API steers. */
export interface ControlContext {
  sandbox: SandboxCore
  /** The server's reset: the sandbox's, plus the data file. */
  reset(): Promise<void>
  adminToken: string | undefined
  /** Host names besides the loopback ones that may reach the control API (`--allowed-host`). */
  allowedHosts: readonly string[]
  /** The OpenAPI document's text, when the package has one. */
  openApiDocument: string | undefined
  /** The API's base path, for the page. */
  basePath: string
}

type Handler = (
  ctx: ControlContext,
  req: IncomingMessage,
  param: string,
) => Promise<SandboxResponse>

const noContent = (): SandboxResponse => ({ status: 204, headers: {}, body: null })
const clockBody = (sandbox: SandboxCore) => ({
  now: new Date(sandbox.clock.now()).toISOString(),
  frozen: sandbox.clock.frozen,
})
const scenarioBody = (sandbox: SandboxCore) => {
  const name = sandbox.scenario.get()
  const all = sandbox.scenario.list()
  return { name, description: all.find((s) => s.name === name)?.description ?? '', scenarios: all }
}

const ClockBodySchema = z
  .strictObject({
    advanceMs: z.number().finite().optional(),
    now: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }).optional(),
  })
  .refine((b) => (b.advanceMs === undefined) !== (b.now === undefined), {
    message: 'send exactly one of advanceMs and now',
  })
const ScenarioBodySchema = z.object({ name: z.string().min(1) })
const limit = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional()
const KeyBodySchema = z.object({
  plan: z.string(),
  key: z.string().optional(),
  perMinute: limit,
  perDay: limit,
})

/** The routes below /__sandbox: path → method → handler. `*` is one path segment. */
const ROUTES: Record<string, Record<string, Handler>> = {
  '/': {
    GET: async (ctx, req) => ({
      status: 200,
      headers: {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': CONTROL_PAGE_CSP,
        'Cache-Control': 'no-store',
      },
      body: renderControlPage(ctx.sandbox, {
        apiBase: `http://${req.headers.host ?? 'localhost'}${ctx.basePath}`,
      }),
    }),
  },
  '/openapi.json': {
    GET: async (ctx) => {
      if (ctx.openApiDocument === undefined)
        throw new ApiError('route_not_found', 'This build of the sandbox has no OpenAPI document.')
      return {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
        body: ctx.openApiDocument,
      }
    },
  },
  '/reset': {
    POST: async (ctx) => {
      await ctx.reset()
      return noContent()
    },
  },
  '/scenario': {
    GET: async (ctx) => jsonResponse(200, scenarioBody(ctx.sandbox)),
    PUT: async (ctx, req) => {
      const { name } = await readControlBody(req, ScenarioBodySchema)
      try {
        ctx.sandbox.scenario.set(name)
      } catch {
        const names = ctx.sandbox.scenario.list().map((s) => s.name)
        throw new ApiError(
          'unknown_scenario',
          `Unknown scenario "${name}". Valid scenarios: ${names.join(', ')}.`,
        )
      }
      return jsonResponse(200, scenarioBody(ctx.sandbox))
    },
  },
  '/clock': {
    GET: async (ctx) => jsonResponse(200, clockBody(ctx.sandbox)),
    POST: async (ctx, req) => {
      const body = await readControlBody(req, ClockBodySchema)
      try {
        if (body.advanceMs !== undefined) ctx.sandbox.clock.advance(body.advanceMs)
        if (body.now !== undefined) ctx.sandbox.clock.set(body.now)
      } catch (error) {
        // The clock refuses a time outside the Date range (contract §9, issue 10 point 2).
        if (!(error instanceof TypeError)) throw error
        const field = body.advanceMs !== undefined ? 'advanceMs' : 'now'
        throw new ApiError('validation_failed', error.message, {
          details: [{ field, message: 'must keep the clock inside the Date range' }],
        })
      }
      return jsonResponse(200, clockBody(ctx.sandbox))
    },
  },
  '/keys': {
    GET: async (ctx) => jsonResponse(200, ctx.sandbox.keys.list().map(showKey)),
    POST: async (ctx, req) => {
      const body = await readControlBody(req, KeyBodySchema)
      if (!isPlanName(body.plan)) {
        throw new ApiError(
          'unknown_plan',
          `Unknown plan "${body.plan}". Use one of ${PLAN_NAMES.join(', ')}.`,
        )
      }
      try {
        const info = ctx.sandbox.keys.create({ ...body, plan: body.plan })
        return jsonResponse(201, { key: info.key, plan: info.plan, limits: info.limits })
      } catch (error) {
        if (!(error instanceof KeyOptionError)) throw error
        throw new ApiError('validation_failed', error.message, {
          details: [{ field: 'key', message: error.message }],
        })
      }
    },
  },
  '/keys/*': {
    DELETE: async (ctx, _req, key) => {
      if (!ctx.sandbox.keys.revoke(key))
        throw new ApiError('key_not_found', `No API key "${key}" exists.`)
      return noContent()
    },
  },
  '/requests': {
    GET: async (ctx) => jsonResponse(200, ctx.sandbox.journal.list()),
    DELETE: async (ctx) => {
      ctx.sandbox.journal.clear()
      return noContent()
    },
  },
}

const decodeSegment = (segment: string): string | undefined => {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

const answer = async (ctx: ControlContext, req: IncomingMessage): Promise<SandboxResponse> => {
  const denied =
    checkControlOrigin(req, ctx.allowedHosts) ?? checkControlAccess(req, ctx.adminToken)
  if (denied !== undefined) throw denied
  const target = req.url ?? '/'
  const query = target.indexOf('?')
  const path = (query === -1 ? target : target.slice(0, query)).slice(CONTROL_PREFIX.length) || '/'
  let param = ''
  let routePath = path
  const keyMatch = /^\/keys\/([^/]+)$/.exec(path)
  if (keyMatch?.[1] !== undefined) {
    const decoded = decodeSegment(keyMatch[1])
    if (decoded === undefined)
      throw new ApiError('key_not_found', 'The key in the path is not valid percent-encoding.')
    param = decoded
    routePath = '/keys/*'
  }
  const methods = ROUTES[routePath]
  if (methods === undefined)
    throw new ApiError('route_not_found', `No control route matches ${CONTROL_PREFIX}${path}.`)
  const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET')
  const handler = methods[method]
  if (handler === undefined) {
    const allow = Object.keys(methods).join(', ')
    throw new ApiError(
      'method_not_allowed',
      `${method} is not allowed on ${CONTROL_PREFIX}${path}. Allowed: ${allow}.`,
      { headers: { Allow: allow } },
    )
  }
  return handler(ctx, req, param)
}

/**
 * Answers a request below `/__sandbox` (contract §9): no API key, no rate
 * limit, loopback or admin token only; errors are the API's JSON Error bodies.
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
