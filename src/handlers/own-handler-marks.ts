import type { RequestHandler } from 'msw'

/** A plain function handler: answers a Fetch `Request` with a `Response`, or `undefined` to pass it on. */
export type OwnHandlerFunction = (
  request: Request,
) => Response | undefined | Promise<Response | undefined>

/**
 * How the sandbox treats a handler of yours that answers a path under its
 * base path (decision 0042):
 * - `key` (the default): inside the pipeline: a key is required (401), the
 *   request counts against the key's quota and carries the rate-limit
 *   headers, the session and the scenario apply, it is journaled;
 * - `public`: inside the pipeline without a key or quota (no rate-limit
 *   headers); the session selector, the scenario and the journal apply;
 * - `passthrough`: as before the sandbox knew your endpoints: none of it,
 *   offered the request before the sandbox checks anything, not journaled.
 */
export type OwnHandlerAccess = 'key' | 'public' | 'passthrough'

export interface OwnHandlerOptions {
  /** Default `key`. */
  access?: OwnHandlerAccess
  /**
   * The operation id it is journaled, judged and covered under (1-200
   * characters), e.g. `listCategories`. Default: `METHOD /path/template`
   * below the base path, e.g. `GET /categories/{id}`.
   */
  name?: string
  /**
   * The route it answers, `METHOD /path` as the client sends it, `{param}` or
   * `:param` for a segment, e.g. `GET /v1/categories/{id}`. Needed for a
   * plain function or a RegExp path to be `public`, or to be listed in the
   * coverage before its first call; an MSW handler with a path has one already.
   */
  route?: string
}

/** A handler of yours with how the sandbox treats it (`ownHandler`, `publicHandler`, `passthroughHandler`). */
export interface MarkedHandler {
  readonly kind: 'petstore-sandbox/own-handler'
  readonly handler: RequestHandler | OwnHandlerFunction
  readonly access: OwnHandlerAccess
  readonly name: string | undefined
  readonly route: string | undefined
}

/**
 * A handler of your own, for paths the contract does not define: an MSW
 * handler (`http.get('*\/v1/categories', …)`), a plain function that answers
 * a Fetch `Request` with a `Response` (or `undefined` to pass it on), or one
 * of those marked by `ownHandler`, `publicHandler` or `passthroughHandler`.
 * A `Response.error()` fails the connection.
 */
export type OwnHandler = RequestHandler | OwnHandlerFunction | MarkedHandler

/** Whether a value is a handler marked by `ownHandler` (by shape: bundles may hold copies of this module). */
export const isMarkedHandler = (value: unknown): value is MarkedHandler =>
  typeof value === 'object' &&
  value !== null &&
  (value as { kind?: unknown }).kind === 'petstore-sandbox/own-handler'

const ACCESS: readonly OwnHandlerAccess[] = ['key', 'public', 'passthrough']

/**
 * Marks a handler of yours: its access (`key`, `public`, `passthrough`), the
 * operation id it is journaled under, and its route. Works in every runtime's
 * `handlers` option and the config file's.
 *
 * @example
 * ownHandler(http.get('*\/v1/categories', list), { name: 'listCategories' })
 * ownHandler((request) => Response.json({ ok: true }), { route: 'GET /v1/status' })
 */
export const ownHandler = (
  handler: RequestHandler | OwnHandlerFunction,
  options: OwnHandlerOptions = {},
): MarkedHandler => {
  if (isMarkedHandler(handler))
    return ownHandler(handler.handler, { ...markOf(handler), ...options })
  const { access = 'key', name, route } = options
  if (!ACCESS.includes(access))
    throw new TypeError(
      `Failed to mark the handler: access "${String(access)}" is not one of ${ACCESS.join(', ')}.`,
    )
  if (name !== undefined && (typeof name !== 'string' || name.length === 0 || name.length > 200))
    throw new TypeError(
      'Failed to mark the handler: name must be 1-200 characters, e.g. "listCategories".',
    )
  if (route !== undefined && typeof route !== 'string')
    throw new TypeError(
      'Failed to mark the handler: route must be "METHOD /path", e.g. "GET /v1/categories".',
    )
  return { kind: 'petstore-sandbox/own-handler', handler, access, name, route }
}

const markOf = (marked: MarkedHandler): OwnHandlerOptions => ({
  access: marked.access,
  ...(marked.name === undefined ? {} : { name: marked.name }),
  ...(marked.route === undefined ? {} : { route: marked.route }),
})

/**
 * A handler answered without a key or quota (no rate-limit headers), still
 * with the session, the scenario and the journal: a status page, a public
 * catalogue.
 *
 * @example
 * publicHandler(http.get('*\/v1/categories', list))
 */
export const publicHandler = (
  handler: RequestHandler | OwnHandlerFunction,
  options: Omit<OwnHandlerOptions, 'access'> = {},
): MarkedHandler => ownHandler(handler, { ...options, access: 'public' })

/**
 * A handler the sandbox stays out of, as before it knew your endpoints: no
 * key, quota, session, scenario or journal; offered the request before the
 * sandbox checks anything.
 *
 * @example
 * passthroughHandler(http.get('*\/v1/legacy', () => HttpResponse.text('ok')))
 */
export const passthroughHandler = (handler: RequestHandler | OwnHandlerFunction): MarkedHandler =>
  ownHandler(handler, { access: 'passthrough' })
