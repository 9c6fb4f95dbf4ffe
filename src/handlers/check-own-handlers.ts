import type { RequestHandler } from 'msw'
import { isMarkedHandler, type OwnHandler } from './own-handler-marks.js'

export type { OwnHandler } from './own-handler-marks.js'

const isMswHandler = (handler: unknown): handler is RequestHandler =>
  typeof handler === 'object' &&
  handler !== null &&
  typeof (handler as { run?: unknown }).run === 'function'

/**
 * Whether a value can be one of your own handlers: an MSW handler, a function,
 * or one of those marked by `ownHandler`.
 *
 * @example
 * isOwnHandler(http.get('*\/health', resolver)) // true
 */
export const isOwnHandler = (value: unknown): value is OwnHandler =>
  typeof value === 'function' ||
  isMswHandler(value) ||
  (isMarkedHandler(value) && (typeof value.handler === 'function' || isMswHandler(value.handler)))

/**
 * Checks a `handlers` option: an array of MSW handlers and plain functions.
 * Throws a TypeError naming the first bad entry.
 *
 * @example
 * const own = checkOwnHandlers(options.handlers, 'create the sandbox')
 */
export const checkOwnHandlers = (handlers: unknown, what: string): readonly OwnHandler[] => {
  if (handlers === undefined) return []
  const rule = 'MSW handlers or functions (request) => Response | undefined'
  if (!Array.isArray(handlers))
    throw new TypeError(`Failed to ${what}: handlers must be a list of ${rule}.`)
  const bad = handlers.findIndex((handler: unknown) => !isOwnHandler(handler))
  if (bad !== -1) throw new TypeError(`Failed to ${what}: handlers[${bad}] is not one of ${rule}.`)
  return handlers as readonly OwnHandler[]
}
