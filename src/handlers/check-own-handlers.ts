import type { RequestHandler } from 'msw'

/**
 * A handler of your own, for paths the contract does not define: an MSW
 * handler (`http.get('*\/v1/categories', …)`), or a plain function that
 * answers a Fetch `Request` with a `Response`, or `undefined` to pass it on.
 * A `Response.error()` fails the connection.
 */
export type OwnHandler =
  | RequestHandler
  | ((request: Request) => Response | undefined | Promise<Response | undefined>)

const isMswHandler = (handler: unknown): handler is RequestHandler =>
  typeof handler === 'object' &&
  handler !== null &&
  typeof (handler as { run?: unknown }).run === 'function'

/**
 * Checks a `handlers` option: an array of MSW handlers and plain functions.
 * Throws a TypeError naming the first bad entry.
 *
 * @example
 * const own = checkOwnHandlers(options.handlers, 'create the sandbox')
 */
export const checkOwnHandlers = (handlers: unknown, what: string): readonly OwnHandler[] => {
  if (handlers === undefined) return []
  if (!Array.isArray(handlers))
    throw new TypeError(
      `Failed to ${what}: handlers must be an array of MSW handlers or functions (request) => Response | undefined, got ${handlers === null ? 'null' : typeof handlers}.`,
    )
  handlers.forEach((handler: unknown, index) => {
    if (typeof handler !== 'function' && !isMswHandler(handler))
      throw new TypeError(
        `Failed to ${what}: handlers[${index}] is neither an MSW handler nor a function (request) => Response | undefined. Pass http.get(…) handlers or functions.`,
      )
  })
  return handlers as readonly OwnHandler[]
}
