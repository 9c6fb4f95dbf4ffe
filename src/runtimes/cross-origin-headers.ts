/** The response headers a page on another origin may read (contract §11). */
export const EXPOSED_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'Link',
  'X-Total-Count',
  'Deprecation',
  'Sunset',
  'Location',
  'WWW-Authenticate',
  'Allow',
].join(', ')

const ALLOWED_HEADERS = 'Authorization, Content-Type, X-Sandbox-Scenario'
const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS'

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
          'Access-Control-Max-Age': '600',
        }
      : {}),
  }
}
