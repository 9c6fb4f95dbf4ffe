/** Talks to the control API from the page: the admin token, the session, JSON Error bodies. */

const TOKEN_KEY = 'petstore-sandbox.admin-token'

/** A JSON Error body the server answered (or a network failure, status 0). */
export class ControlError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message)
  }
}

/** The admin token lives in sessionStorage only: this tab, until it closes. */
export const readToken = (): string | null => sessionStorage.getItem(TOKEN_KEY)
export const saveToken = (token: string): void => sessionStorage.setItem(TOKEN_KEY, token)
export const forgetToken = (): void => sessionStorage.removeItem(TOKEN_KEY)

let session: string | null = null
/** The session control calls act on (contract §12); null for the default. */
export const selectSession = (id: string | null): void => {
  session = id
}

/** Headers of every control call: the token and the selected session. */
export const controlHeaders = (): Record<string, string> => {
  const headers: Record<string, string> = {}
  const token = readToken()
  if (token !== null) headers.Authorization = `Bearer ${token}`
  if (session !== null) headers['X-Sandbox-Session'] = session
  return headers
}

const parseError = async (response: Response): Promise<ControlError> => {
  try {
    const body: unknown = await response.json()
    if (typeof body === 'object' && body !== null && 'code' in body && 'message' in body) {
      return new ControlError(String(body.code), String(body.message), response.status)
    }
  } catch {}
  return new ControlError('unexpected', `The server answered ${response.status}.`, response.status)
}

/**
 * Calls `/__sandbox{path}`; resolves the JSON body (undefined for 204),
 * throws a ControlError with the server's code and message otherwise.
 *
 * @example
 * await call('PUT', '/scenario', { name: 'empty' })
 */
export const call = async <T = unknown>(
  method: string,
  path: string,
  body?: unknown,
): Promise<T> => {
  const headers = controlHeaders()
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  let response: Response
  try {
    response = await fetch(`/__sandbox${path}`, {
      method,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
      cache: 'no-store',
    })
  } catch {
    throw new ControlError('network', 'The sandbox server cannot be reached.', 0)
  }
  if (!response.ok) throw await parseError(response)
  if (response.status === 204) return undefined as T
  return (await response.json()) as T
}
