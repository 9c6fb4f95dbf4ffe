/** What try-it sends with every request to the API: a key, a scenario, a session. */
export interface TryItSettings {
  /** The API key (`Authorization: Bearer`); '' sends none (or what Swagger UI's Authorize set). */
  key: string
  /** `X-Sandbox-Scenario`; '' sends none (the session's sticky scenario answers). */
  scenario: string
  /** `X-Sandbox-Session`; '' sends none (the session `default`). */
  session: string
}

/** A session id as the contract takes it (§12). */
export const SESSION_ID = /^[A-Za-z0-9._-]{1,64}$/

const STORE = 'petstore-sandbox.docs'
const KEYS_STORE = 'petstore-sandbox.docs.keys'

/** The tab's settings (sessionStorage: this tab only, until it closes). */
export const loadSettings = (): TryItSettings => {
  const fallback: TryItSettings = { key: 'sandbox-free', scenario: '', session: '' }
  try {
    const saved: unknown = JSON.parse(sessionStorage.getItem(STORE) ?? 'null')
    if (typeof saved !== 'object' || saved === null) return fallback
    const read = (name: keyof TryItSettings): string => {
      const value: unknown = (saved as Record<string, unknown>)[name]
      return typeof value === 'string' ? value : fallback[name]
    }
    return { key: read('key'), scenario: read('scenario'), session: read('session') }
  } catch {
    return fallback
  }
}

export const saveSettings = (settings: TryItSettings): void =>
  sessionStorage.setItem(STORE, JSON.stringify(settings))

/** A key created on this page, known in full (the control API lists run-time keys masked). */
export interface CreatedKey {
  key: string
  plan: string
  session: string
}

export const loadCreatedKeys = (): CreatedKey[] => {
  try {
    const saved: unknown = JSON.parse(sessionStorage.getItem(KEYS_STORE) ?? '[]')
    if (!Array.isArray(saved)) return []
    return saved.filter(
      (k): k is CreatedKey =>
        typeof k === 'object' &&
        k !== null &&
        typeof k.key === 'string' &&
        typeof k.plan === 'string' &&
        typeof k.session === 'string',
    )
  } catch {
    return []
  }
}

export const saveCreatedKey = (key: CreatedKey): void =>
  sessionStorage.setItem(KEYS_STORE, JSON.stringify([...loadCreatedKeys(), key]))

/**
 * The headers try-it adds to a request: the key, scenario and session on the
 * API's requests; the admin token (when the tab has one) on the control
 * API's, which the document describes too. Headers Swagger UI set itself
 * (its Authorize dialog) stay unless the page has a value of its own.
 *
 * @example
 * tryItHeaders({ key: 'sandbox-pro', scenario: 'empty', session: 'a' }, '/v1', '/v1/pets', null)
 * // { Authorization: 'Bearer sandbox-pro', 'X-Sandbox-Scenario': 'empty', 'X-Sandbox-Session': 'a' }
 */
export const tryItHeaders = (
  settings: TryItSettings,
  basePath: string,
  path: string,
  adminToken: string | null,
): Record<string, string> => {
  const base = basePath.replace(/\/$/, '')
  if (path === '/__sandbox' || path.startsWith('/__sandbox/')) {
    const headers: Record<string, string> = {}
    if (adminToken !== null) headers.Authorization = `Bearer ${adminToken}`
    if (settings.session !== '') headers['X-Sandbox-Session'] = settings.session
    return headers
  }
  if (path !== base && !path.startsWith(`${base}/`)) return {}
  const headers: Record<string, string> = {}
  if (settings.key !== '') headers.Authorization = `Bearer ${settings.key}`
  if (settings.scenario !== '') headers['X-Sandbox-Scenario'] = settings.scenario
  if (settings.session !== '') headers['X-Sandbox-Session'] = settings.session
  return headers
}
