/** Talks to the account API (/portal/api) and the account's own control (/__sandbox) with the portal cookie. */
import { ControlError } from '../../dashboard/app/api.js'

let csrfToken: string | null = null
/** The CSRF token of the signed-in account (`GET /portal/api/me`), sent on every write. */
export const useCsrfToken = (token: string | null): void => {
  csrfToken = token
}

const parseError = async (response: Response): Promise<ControlError> => {
  try {
    const body: unknown = await response.json()
    if (typeof body === 'object' && body !== null && 'code' in body && 'message' in body)
      return new ControlError(String(body.code), String(body.message), response.status)
  } catch {}
  return new ControlError('unexpected', `The server answered ${response.status}.`, response.status)
}

/**
 * Calls a path of this server with the cookie; resolves the JSON body
 * (undefined for 204), throws a ControlError with the server's code otherwise.
 *
 * @example
 * await send('POST', '/portal/api/keys', { name: 'CI', plan: 'free' })
 */
export const send = async <T = unknown>(
  method: string,
  path: string,
  body?: unknown,
): Promise<T> => {
  const headers: Record<string, string> = {}
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  if (method !== 'GET' && csrfToken !== null) headers['X-CSRF-Token'] = csrfToken
  let response: Response
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? null : JSON.stringify(body),
    })
  } catch {
    throw new ControlError('network', 'The server could not be reached.', 0)
  }
  if (!response.ok) throw await parseError(response)
  if (response.status === 204) return undefined as T
  return (await response.json()) as T
}

/** The account API, below /portal/api. */
export const account = <T = unknown>(method: string, path: string, body?: unknown) =>
  send<T>(method, `/portal/api${path}`, body)

/** The account's own sandbox, through the control API (the cookie and the CSRF token). */
export const sandbox = <T = unknown>(method: string, path: string, body?: unknown) =>
  send<T>(method, `/__sandbox${path}`, body)

export interface Me {
  id: string
  email: string
  createdAt: string
  csrfToken: string
}

export interface Key {
  id: string
  name: string
  plan: string
  prefix: string
  limits: { perMinute: number; perDay: number }
  createdAt: string
  lastUsedAt: string | null
  expiresAt?: string
}

export interface Quota {
  id: string
  name: string
  plan: string
  limits: { perMinute: number; perDay: number }
  bucket: { minuteUsed: number; dayUsed: number; bannedUntil?: number } | null
}

export interface Entry {
  seq: number
  time: string
  method: string
  url: string
  status: number | null
  code: string | null
  keyRef: string | null
  scenario: string
}
