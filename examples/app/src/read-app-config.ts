/** How the example app runs, from its own URL's query. */
export interface AppConfig {
  /** The API base URL, without a trailing slash. */
  apiBase: string
  /** The API key sent as `Authorization: Bearer <key>`. */
  apiKey: string
  /** `worker`: start the browser sandbox before rendering, so no server is needed. */
  mock: 'worker' | undefined
}

/** The standalone server's default address (`npm start`). */
export const DEFAULT_SERVER_API = 'http://127.0.0.1:4010/v1'

/**
 * Reads `?api=…&key=…&mock=worker`. With the worker the API defaults to this
 * page's own origin (`/v1`), which the service worker answers.
 *
 * @example
 * readAppConfig(new URL('http://localhost:5173/?mock=worker&key=sandbox-pro'))
 * // { apiBase: 'http://localhost:5173/v1', apiKey: 'sandbox-pro', mock: 'worker' }
 */
export const readAppConfig = (pageUrl: URL): AppConfig => {
  const params = pageUrl.searchParams
  const mock = params.get('mock') === 'worker' ? 'worker' : undefined
  const api = params.get('api') ?? (mock === 'worker' ? '/v1' : DEFAULT_SERVER_API)
  return {
    apiBase: new URL(api, pageUrl).href.replace(/\/+$/, ''),
    apiKey: params.get('key') ?? 'sandbox-free',
    mock,
  }
}
