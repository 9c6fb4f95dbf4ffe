import { invalidParameter } from '../http/errors.js'
import { singleParam } from '../http/query.js'
import type { UrlFields } from '../http/request-url.js'
import type { SandboxRequest } from '../http/types.js'
import { DEFAULT_SESSION, SESSION_ID } from '../state/sandbox-state.js'

/**
 * The session a request asks for: `__session=<id>` wins over
 * `X-Sandbox-Session: <id>`; undefined when it asks for none. An id that is
 * not 1-64 characters of A-Z a-z 0-9 . _ - is 400 `invalid_parameter`.
 *
 * @example
 * requestedSession(new URL('http://x/v1/pets?__session=w1'), {}) // 'w1'
 */
export const requestedSession = (
  url: UrlFields,
  headers: SandboxRequest['headers'],
): string | undefined => {
  const flag = singleParam(url.searchParams, '__session')
  if (flag !== undefined) return checkSessionId('__session', flag)
  const header = headers['x-sandbox-session']
  return header === undefined ? undefined : checkSessionId('X-Sandbox-Session', header.trim())
}

const checkSessionId = (field: string, id: string): string => {
  if (!SESSION_ID.test(id))
    throw invalidParameter(field, 'must be a session id: 1-64 characters of A-Z a-z 0-9 . _ -')
  return id
}

/**
 * Stage 1: which session answers. A run-time key bound to a session always
 * lands there (contract §12), whatever the request asks for; otherwise the
 * flag, the header, or `default`.
 *
 * @example
 * selectSession({ requested: 'w1', boundTo: undefined }) // 'w1'
 */
export const selectSession = (input: {
  requested: string | undefined
  boundTo: string | undefined
}): string => input.boundTo ?? input.requested ?? DEFAULT_SESSION
