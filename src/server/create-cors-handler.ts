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
export const createCorsHandler = (
  options: CorsOptions = DEFAULT_CORS_OPTIONS,
): ((req: IncomingMessage, res: ServerResponse) => boolean) => {
  const middleware = cors(options)
  return (req, res) => {
    const preflight =
      req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined
    // A plain OPTIONS is the API's (405 with Allow); the package would answer any OPTIONS.
    if (req.method === 'OPTIONS' && !preflight) return false
    let passed = false
    // With static options the package calls next synchronously.
    middleware(req, res, () => {
      passed = true
    })
    return !passed
  }
}
