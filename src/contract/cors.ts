/**
 * The CORS policy of contract §11, written once: the standalone server (with
 * the `cors` package) and the Playwright entry both send it.
 */
export const CORS_POLICY = {
  /** Request headers a page may send. */
  allowedHeaders: ['Authorization', 'Content-Type', 'X-Sandbox-Scenario', 'X-Sandbox-Session'],
  /** Methods of the API (405 answers included) and of the control API. */
  methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
  /** Response headers a page on another origin may read. */
  exposedHeaders: [
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
    'Request-Id',
  ],
  /** How long a browser may cache a preflight answer, in seconds. */
  maxAgeSeconds: 600,
} as const
