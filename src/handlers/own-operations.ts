import type { RequestHandler } from 'msw'
import { payloadTooLarge, routeNotFound } from '../http/errors.js'
import type { SandboxResponse } from '../http/types.js'
import type { Operation, OperationContext, OperationMethod } from '../operations/operation.js'
import { API_ROUTER } from '../operations/routes.js'
import { belowBasePath } from '../pipeline/locate.js'
import { answerWithOwnHandlers, type LoadMsw } from './answer-with-own-handlers.js'
import {
  isMarkedHandler,
  type OwnHandler,
  type OwnHandlerAccess,
  type OwnHandlerFunction,
} from './own-handler-marks.js'
import { toFetchRequest } from './to-fetch-request.js'

/** A handler of yours without its mark: an MSW handler or a plain function. */
export type RawOwnHandler = RequestHandler | OwnHandlerFunction
type RawHandler = RawOwnHandler

/** Your handlers, sorted by where they run (decision 0042). */
export interface OwnHandlerPlan {
  /** Operations for the route table: handlers whose route the sandbox reads (MSW path or `route`). */
  operations: Operation[]
  /** Key-required handlers without a route (plain functions, RegExp paths, `http.all`): tried in order for paths no route matches. */
  fallback: Operation | undefined
  /** Marked passthrough: offered a request below the base path before the sandbox checks anything. */
  passthrough: RawHandler[]
  /** Every handler but the passthrough ones, as given: they answer paths outside the base path, as before. */
  outside: RawHandler[]
}

const METHODS: ReadonlySet<string> = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])
const SEGMENT = /^[A-Za-z0-9._~!$&'()+,;=@-]+$/
const PARAM = /^(?::([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})$/

/** `METHOD /path` of an MSW handler, when it has one method and a string path. */
const mswRoute = (handler: RawHandler): { method: string; path: string } | undefined => {
  if (typeof handler === 'function') return undefined
  const info = handler.info as { method?: unknown; path?: unknown }
  if (typeof info.method !== 'string' || typeof info.path !== 'string') return undefined
  return { method: info.method, path: info.path }
}

/** The path of a route as written (`*\/v1/x`, `https://host/v1/x`, `/v1/x`), without origin or query. */
const pathOf = (raw: string): string | undefined => {
  let path = raw.startsWith('*') ? raw.slice(1) : raw
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(path)
  if (origin !== null) path = path.slice(origin[0].length)
  path = path.split(/[?#]/)[0] ?? ''
  return path.startsWith('/') ? path : undefined
}

/** `/categories/:id` → `/categories/{id}`; undefined for wildcards and anything the router cannot hold. */
const toTemplate = (below: string): string | undefined => {
  if (below === '' || below === '/') return undefined
  const parts = below.slice(1).split('/')
  const out: string[] = []
  for (const part of parts) {
    const param = PARAM.exec(part)
    if (param !== null) out.push(`{${param[1] ?? param[2]}}`)
    else if (SEGMENT.test(part)) out.push(part)
    else return undefined
  }
  return `/${out.join('/')}`
}

const toSandboxResponse = async (response: Response): Promise<SandboxResponse> => {
  // Response.error(): the connection fails, as in the `network-error` scenario.
  if (response.type === 'error')
    return { status: 502, headers: {}, body: null, fault: 'network-error' }
  const headers = Object.fromEntries(
    [...response.headers].filter(
      ([name]) => name !== 'content-length' && name !== 'transfer-encoding',
    ),
  )
  return {
    status: response.status,
    headers,
    body: response.body === null ? null : await response.text(),
  }
}

/** Asks handlers in order; the first answer wins. Undefined when none answers. */
const ask = async (
  handlers: readonly RawHandler[],
  ctx: OperationContext,
  loadMsw: LoadMsw,
): Promise<SandboxResponse | undefined> => {
  const { request, settings } = ctx
  const max = settings.fidelity.maxBodyBytes
  if (request.body !== null && request.body.byteLength > max) throw payloadTooLarge(max)
  const response = await answerWithOwnHandlers(handlers, toFetchRequest(request), loadMsw)
  return response === undefined ? undefined : toSandboxResponse(response)
}

interface Routed {
  method: OperationMethod
  template: string
  access: Exclude<OwnHandlerAccess, 'passthrough'>
  id: string
  handlers: RawHandler[]
}

/**
 * Sorts your handlers for a sandbox whose API is below `basePath`: a handler
 * whose route the sandbox reads (an MSW handler with one method and a string
 * path, or a `route` given) becomes an operation of its route table, journaled
 * as `METHOD /template` (below the base path) or its `name`; handlers of one
 * route share one operation, in order. Key-required handlers without a route
 * become the fallback; passthrough ones stay out of the pipeline. Throws a
 * TypeError for a public handler without a route, or a `route` outside the
 * base path.
 *
 * @example
 * planOwnHandlers([http.get('*\/v1/categories', list)], '/v1', 'create the sandbox', loadMswOnDemand).operations[0].id
 * // 'GET /categories'
 */
export const planOwnHandlers = (
  given: readonly OwnHandler[],
  basePath: string,
  what: string,
  /** msw's `getResponse`: handed in by the MSW runtimes, `loadMswOnDemand` elsewhere. */
  loadMsw: LoadMsw,
): OwnHandlerPlan => {
  const routed = new Map<string, Routed>()
  const unrouted: { handler: RawHandler; id: string | undefined }[] = []
  const passthrough: RawHandler[] = []
  const outside: RawHandler[] = []
  given.forEach((entry, index) => {
    const marked = isMarkedHandler(entry) ? entry : undefined
    const handler = marked?.handler ?? (entry as RawHandler)
    const access = marked?.access ?? 'key'
    if (access === 'passthrough') {
      passthrough.push(handler)
      return
    }
    outside.push(handler)
    const where = `Failed to ${what}: handlers[${index}]`
    let route = mswRoute(handler)
    if (marked?.route !== undefined) {
      const [method = '', raw = ''] = marked.route.trim().split(/\s+/)
      route = { method, path: raw }
      const below = belowBasePath(pathOf(raw) ?? '', basePath)
      if (
        !METHODS.has(method.toUpperCase()) ||
        below === undefined ||
        toTemplate(below) === undefined
      )
        throw new TypeError(
          `${where} has route "${marked.route}"; give "METHOD ${basePath}/path" with ${[...METHODS].join(', ')}, e.g. "GET ${basePath}/categories/{id}".`,
        )
    }
    const path = route === undefined ? undefined : pathOf(route.path)
    const below = path === undefined ? undefined : belowBasePath(path, basePath)
    // An MSW path outside the base path: the sandbox never sees those requests.
    if (route !== undefined && path !== undefined && below === undefined) return
    const method = route?.method.toUpperCase() ?? ''
    const template = below === undefined ? undefined : toTemplate(below)
    if (template === undefined || !METHODS.has(method)) {
      if (access === 'public')
        throw new TypeError(
          `${where} is public, but the sandbox cannot read which requests it answers (a plain function, a RegExp or wildcard path, or http.all) before it checks a key. Give it a route: publicHandler(handler, { route: 'GET ${basePath}/status' }).`,
        )
      unrouted.push({ handler, id: marked?.name })
      return
    }
    // The contract's routes are the sandbox's (decision 0019's order rule): a handler
    // there never answers through the `handlers` option; put it before the sandbox's.
    if (API_ROUTER.match(method, template).kind === 'found') return
    const key = `${method} ${template}`
    const known = routed.get(key)
    if (known !== undefined) known.handlers.push(handler)
    else
      routed.set(key, {
        method: method as OperationMethod,
        template,
        access,
        id: marked?.name ?? key,
        handlers: [handler],
      })
  })
  const operations = [...routed.values()].map(
    ({ method, template, access, id, handlers }): Operation => ({
      id,
      method,
      path: template,
      access,
      run: async (ctx) => {
        const answer = await ask(handlers, ctx, loadMsw)
        if (answer === undefined) throw routeNotFound(ctx.url.pathname)
        return answer
      },
    }),
  )
  return { operations, fallback: fallbackOf(unrouted, loadMsw), passthrough, outside }
}

/**
 * One operation for the handlers without a route: tried in order after the
 * route table missed; its answer is journaled as the answering handler's
 * `name`, else `METHOD /path` as requested (below the base path).
 */
const fallbackOf = (
  unrouted: readonly { handler: RawHandler; id: string | undefined }[],
  loadMsw: LoadMsw,
): Operation | undefined => {
  if (unrouted.length === 0) return undefined
  const answeredBy = new WeakMap<SandboxResponse, string>()
  return {
    id: '(your handlers)',
    method: 'GET',
    path: '/*',
    run: async (ctx) => {
      for (const { handler, id } of unrouted) {
        const answer = await ask([handler], ctx, loadMsw)
        if (answer === undefined) continue
        answeredBy.set(
          answer,
          id ??
            `${ctx.request.method} ${ctx.url.pathname.slice(ctx.settings.basePath.length) || '/'}`,
        )
        return answer
      }
      throw routeNotFound(ctx.url.pathname)
    },
    idOf: (response) => answeredBy.get(response) ?? null,
  }
}
