import { CORS_POLICY } from '../contract/cors.js'

const EXPOSED_HEADERS = CORS_POLICY.exposedHeaders.join(', ')
const ALLOWED_HEADERS = CORS_POLICY.allowedHeaders.join(', ')
const ALLOWED_METHODS = [...CORS_POLICY.methods, 'OPTIONS'].join(', ')

/**
 * The CORS headers a cross-origin request needs, as the standalone server
 * sends them; empty for a same-origin request or one without `Origin`.
 * `preflight` adds the answer to an `OPTIONS` preflight.
 *
 * @example
 * crossOriginHeaders({ origin: 'http://localhost:5173', url: 'https://api.example.test/v1/pets' })
 * // { 'Access-Control-Allow-Origin': 'http://localhost:5173', 'Access-Control-Expose-Headers': '…', Vary: 'Origin' }
 */
export const crossOriginHeaders = (input: {
  origin: string | undefined
  url: string
  preflight?: boolean
}): Record<string, string> => {
  const { origin, url } = input
  if (origin === undefined || origin === new URL(url).origin) return {}
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Expose-Headers': EXPOSED_HEADERS,
    Vary: 'Origin',
    ...(input.preflight === true
      ? {
          'Access-Control-Allow-Methods': ALLOWED_METHODS,
          'Access-Control-Allow-Headers': ALLOWED_HEADERS,
          'Access-Control-Max-Age': String(CORS_POLICY.maxAgeSeconds),
        }
      : {}),
  }
}
