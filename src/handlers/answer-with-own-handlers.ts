import type { getResponse, RequestHandler } from 'msw'
import { isMarkedHandler, type OwnHandler, type OwnHandlerFunction } from './own-handler-marks.js'

/**
 * Offers a request to your own handlers in order, the first answer winning:
 * runs of MSW handlers through msw's `getResponse` (msw is loaded only when
 * there is one), plain functions called as they are. Resolves undefined
 * when none answers.
 *
 * @example
 * const response = await answerWithOwnHandlers(handlers, new Request('http://x/health'), loadMswOnDemand)
 */
export const answerWithOwnHandlers = async (
  handlers: readonly OwnHandler[],
  request: Request,
  loadMsw: LoadMsw,
): Promise<Response | undefined> => {
  let index = 0
  while (index < handlers.length) {
    const handler = unwrap(handlers[index] as OwnHandler)
    if (typeof handler === 'function') {
      const response = await handler(request.clone())
      if (response !== undefined) return checkResponse(response, index)
      index += 1
      continue
    }
    // A run of MSW handlers: one getResponse, so msw keeps its own order rules (once, …).
    let end = index
    while (end < handlers.length && typeof unwrap(handlers[end] as OwnHandler) !== 'function')
      end += 1
    const { getResponse } = await loadMsw()
    const response = await getResponse(
      handlers.slice(index, end).map(unwrap) as RequestHandler[],
      request.clone(),
    )
    if (response !== undefined) return response
    index = end
  }
  return undefined
}

/**
 * How msw's `getResponse` is reached: imported on first use where msw may be
 * absent (the server, Playwright), handed in where msw is loaded anyway (the
 * MSW runtimes: a dynamic import there would keep every export of msw in a
 * browser app's start-up bundle).
 */
export type LoadMsw = () => Promise<{ getResponse: typeof getResponse }>

const unwrap = (handler: OwnHandler): RequestHandler | OwnHandlerFunction =>
  isMarkedHandler(handler) ? handler.handler : handler

const checkResponse = (response: unknown, index: number): Response => {
  if (response instanceof Response) return response
  throw new TypeError(
    `Failed to answer with handlers[${index}]: it returned ${response === null ? 'null' : typeof response}, not a Response. Return a Response (Response.json(…)) or undefined to pass the request on.`,
  )
}
