import { answerWithOwnHandlers } from '../handlers/answer-with-own-handlers.js'
import type { OwnHandler } from '../handlers/check-own-handlers.js'
import { loadMswOnDemand } from '../handlers/load-msw-on-demand.js'
import { toFetchRequest } from '../handlers/to-fetch-request.js'
import type { SandboxRequest } from '../http/types.js'
import { crossOriginHeaders } from './cross-origin-headers.js'

/** What fulfilWithOwnHandlers needs of a Playwright route. */
interface FulfillingRoute {
  fulfill(response: {
    status: number
    headers: Record<string, string>
    body: string
  }): Promise<void>
  abort(errorCode?: string): Promise<void>
}

/**
 * Offers a request the sandbox does not answer to the user's own handlers
 * (MSW ones or plain functions; msw is loaded only for MSW ones), and fulfils
 * the Playwright route with their answer, with the CORS headers the
 * standalone server sends (or aborts it, for `Response.error()`). Resolves
 * false when none answers.
 *
 * @example
 * if (!(await fulfilWithOwnHandlers(route, handlers, request, origin))) await route.fallback()
 */
export const fulfilWithOwnHandlers = async (
  route: FulfillingRoute,
  handlers: readonly OwnHandler[],
  request: SandboxRequest,
  origin: string | undefined,
): Promise<boolean> => {
  const response = await answerWithOwnHandlers(handlers, toFetchRequest(request), loadMswOnDemand)
  if (response === undefined) return false
  if (response.type === 'error') {
    await route.abort('failed')
    return true
  }
  await route.fulfill({
    status: response.status,
    headers: {
      ...Object.fromEntries(response.headers),
      ...crossOriginHeaders({ origin, url: request.url }),
    },
    body: await response.text(),
  })
  return true
}
