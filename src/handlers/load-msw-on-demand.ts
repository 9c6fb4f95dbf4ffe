import type { LoadMsw } from './answer-with-own-handlers.js'

/**
 * msw's `getResponse`, imported on first use: for the runtimes that may run
 * without msw (the server, Playwright). Never imported by the MSW runtimes'
 * code (a browser bundle would keep all of msw at start for it).
 *
 * @example
 * await answerWithOwnHandlers(handlers, request, loadMswOnDemand)
 */
export const loadMswOnDemand: LoadMsw = () => import('msw')
