import type { IncomingMessage, ServerResponse } from 'node:http'
import cors, { type CorsOptions } from 'cors'
import { CORS_POLICY } from '../contract/cors.js'

/** Contract §11: any origin; the headers a client sends and the ones it must read. */
export const DEFAULT_CORS_OPTIONS: CorsOptions = {
  origin: '*',
  methods: [...CORS_POLICY.methods],
  allowedHeaders: [...CORS_POLICY.allowedHeaders],
  exposedHeaders: [...CORS_POLICY.exposedHeaders],
  maxAge: CORS_POLICY.maxAgeSeconds,
}

/** Sets CORS headers and answers preflights; true when it answered. */
export interface CorsHandler {
  (req: IncomingMessage, res: ServerResponse): boolean
  /**
   * The headers the package sets on every request that is not a preflight,
   * when they do not depend on the request (a fixed `origin`): the API's hot
   * path writes them with the answer instead of calling `setHeader` each time.
   */
  readonly simpleHeaders: Readonly<Record<string, string>> | undefined
}

const isPreflight = (req: IncomingMessage): boolean =>
  req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined

/**
 * What the package sets on a simple request, learnt once by running it
 * against a recording response: the fast path cannot drift from the package.
 */
const learnSimpleHeaders = (
  middleware: ReturnType<typeof cors>,
  options: CorsOptions,
): Record<string, string> | undefined => {
  if (options.origin !== undefined && typeof options.origin !== 'string') return undefined
  const headers = new Map<string, string>()
  const recorder = {
    setHeader: (name: string, value: string) => {
      headers.set(name, value)
    },
    getHeader: (name: string) => headers.get(name),
  } as unknown as ServerResponse
  let passed = false
  middleware({ method: 'GET', headers: {} } as IncomingMessage, recorder, () => {
    passed = true
  })
  return passed ? Object.freeze(Object.fromEntries(headers)) : undefined
}

/**
 * The default CORS options, exposing a `totalCountHeader` of another name
 * (contract §16) where X-Total-Count is exposed, so pages can read it.
 *
 * @example
 * exposingTotalCount('X-Total') // DEFAULT_CORS_OPTIONS with X-Total exposed
 */
export const exposingTotalCount = (header: string | false): CorsOptions =>
  header === false || header.toLowerCase() === 'x-total-count'
    ? DEFAULT_CORS_OPTIONS
    : { ...DEFAULT_CORS_OPTIONS, exposedHeaders: [...CORS_POLICY.exposedHeaders, header] }

/**
 * Sets CORS headers with the `cors` package and answers preflights (an
 * OPTIONS with `Access-Control-Request-Method`) itself: no key, no quota.
 * Returns true when it answered.
 *
 * @example
 * const applyCors = createCorsHandler()
 * if (applyCors(req, res)) return
 */
export const createCorsHandler = (options: CorsOptions = DEFAULT_CORS_OPTIONS): CorsHandler => {
  const middleware = cors(options)
  const apply = (req: IncomingMessage, res: ServerResponse): boolean => {
    // A plain OPTIONS is the API's (405 with Allow); the package would answer any OPTIONS.
    if (req.method === 'OPTIONS' && !isPreflight(req)) return false
    let passed = false
    // With static options the package calls next synchronously.
    middleware(req, res, () => {
      passed = true
    })
    return !passed
  }
  return Object.assign(apply, { simpleHeaders: learnSimpleHeaders(middleware, options) })
}

/**
 * The CORS headers to write with this request's answer instead of setting
 * them now, or undefined when they must be set the package's way.
 *
 * @example
 * const corsHeaders = writtenWithAnswer(applyCors, req)
 */
export const writtenWithAnswer = (
  handler: CorsHandler | undefined,
  req: IncomingMessage,
): Readonly<Record<string, string>> | undefined =>
  handler === undefined || isPreflight(req) || req.method === 'OPTIONS'
    ? undefined
    : handler.simpleHeaders
