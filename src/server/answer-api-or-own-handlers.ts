import type { IncomingMessage, ServerResponse } from 'node:http'
import type { OwnHandler } from '../handlers/check-own-handlers.js'
import { type ApiAnswerContext, answerApiRequest, oversized } from './answer-api-request.js'
import { readRequestBody } from './read-request-body.js'
import { serveOwnHandlers } from './serve-own-handlers.js'

/**
 * Below the base path with the user's own handlers: the sandbox answers the
 * contract's routes, the user's handlers every other path, and the sandbox
 * what none of them takes (401, 429 or 404 route_not_found, journaled).
 *
 * @example
 * if (await answerApiOrOwnHandlers({ api, handlers, req, res, url, basePathHint })) return
 */
export const answerApiOrOwnHandlers = async (input: {
  api: ApiAnswerContext
  handlers: readonly OwnHandler[]
  req: IncomingMessage
  res: ServerResponse
  url: string
  basePathHint: string
}): Promise<boolean> => {
  const { api, handlers, req, res, url, basePathHint } = input
  // Read once: the sandbox, then the handlers, then the sandbox again may all need it.
  const { maxBodyBytes } = api.sandbox.fidelity
  const read = await readRequestBody(req, maxBodyBytes)
  if (read.kind === 'aborted') {
    req.socket.destroy()
    return true
  }
  if (read.kind === 'too-large')
    return answerApiRequest(api, req, res, { body: oversized(maxBodyBytes), basePathHint })
  const { body } = read
  if (await answerApiRequest(api, req, res, { body, passUnknownRoutes: true })) return true
  if (await serveOwnHandlers(handlers, req, res, url, body)) return true
  return answerApiRequest(api, req, res, { body, basePathHint })
}
