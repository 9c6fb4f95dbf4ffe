import { methodNotAllowed, routeNotFound } from '../http/errors.js'
import type { Router, RouterResult } from '../http/router.js'
import type { Operation } from '../operations/operation.js'
import { API_ROUTER } from '../operations/routes.js'

/**
 * The API route of a method and path, known before the request is
 * authenticated (an operation's headers go on every answer of it, errors
 * included), but only answered as 404/405 in `route`. `HEAD` is routed as
 * `GET` (contract §15) and answered without a body.
 *
 * @example
 * matchOperation('GET', '/pets/7', ctx.routes.router) // { kind: 'found', value: getPet, … }
 */
export const matchOperation = (
  method: string,
  path: string,
  router: Router<Operation> = API_ROUTER,
): RouterResult<Operation> => router.match(method === 'HEAD' ? 'GET' : method, path)

/**
 * The methods a path answers, for `Allow`: HEAD wherever GET is, and OPTIONS.
 *
 * @example
 * allowedMethods(['GET', 'POST']) // ['GET', 'HEAD', 'POST', 'OPTIONS']
 */
export const allowedMethods = (methods: readonly string[]): string[] => {
  const allow: string[] = []
  for (const method of methods) {
    allow.push(method)
    if (method === 'GET') allow.push('HEAD')
  }
  return [...allow, 'OPTIONS']
}

/**
 * Stage 6: the operation to run; 404 `route_not_found` for an unknown path,
 * 405 `method_not_allowed` with `Allow` for a known path with another method.
 *
 * @example
 * const { operation, params } = route(match, request.method, url.pathname)
 */
export const route = (
  match: RouterResult<Operation>,
  method: string,
  pathname: string,
  notFoundHint = '',
): { operation: Operation; params: Record<string, string> } => {
  if (match.kind === 'not-found') throw routeNotFound(pathname, notFoundHint)
  if (match.kind === 'method-not-allowed')
    throw methodNotAllowed(method, pathname, allowedMethods(match.allow))
  return { operation: match.value, params: match.params }
}
