import { methodNotAllowed } from '../http/errors.js'
import { jsonResponse } from '../http/json-response.js'
import type { SandboxResponse } from '../http/types.js'
import { CONTROL_PREFIX } from './control/handle-control-request.js'

/** Where things live on a running server, as absolute URLs. */
export interface ServerLinks {
  api: string
  dashboard: string
  openapi: string
  /** The API reference with try-it (issue 30). */
  docs: string
}

/**
 * The server's own addresses, from the origin a request came to.
 *
 * @example
 * serverLinks('http://127.0.0.1:4010', '/v1').dashboard // 'http://127.0.0.1:4010/__sandbox/'
 */
export const serverLinks = (origin: string, basePath: string): ServerLinks => ({
  api: `${origin}${basePath.replace(/\/$/, '')}`,
  dashboard: `${origin}${CONTROL_PREFIX}/`,
  openapi: `${origin}${CONTROL_PREFIX}/openapi.json`,
  docs: `${origin}${CONTROL_PREFIX}/docs`,
})

/** The sentence the 404 for the bare base path ends with on the server. */
export const describeLinks = (links: ServerLinks): string =>
  `Dashboard: ${links.dashboard}; OpenAPI document: ${links.openapi}.`

/**
 * `GET /` on the server: where the API, the dashboard and the OpenAPI document
 * are, as JSON, so that opening the server's address in a browser leads on.
 *
 * @example
 * writeNow(res, answerServerIndex('GET', serverLinks(origin, '/v1')))
 */
export const answerServerIndex = (method: string, links: ServerLinks): SandboxResponse => {
  if (method !== 'GET' && method !== 'HEAD')
    return methodNotAllowed(method, '/', ['GET', 'HEAD']).toResponse()
  return jsonResponse(200, {
    name: 'petstore-sandbox',
    message: `The Pet Store API sandbox. The API is at ${links.api} (send "Authorization: Bearer sandbox-free").`,
    ...links,
  })
}
