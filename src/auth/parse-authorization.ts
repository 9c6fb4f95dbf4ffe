/** What an `Authorization` header says, before the key is looked up. */
export type AuthorizationHeader =
  | { kind: 'missing' }
  /** `tokenSent`: the Bearer scheme with something after it (RFC 6750 then adds error="invalid_token"). */
  | { kind: 'malformed'; tokenSent: boolean }
  | { kind: 'bearer'; token: string }

// RFC 6750 b64token after a case-insensitive "Bearer" and one or more spaces.
const BEARER = /^bearer +([A-Za-z0-9\-._~+/]+=*)$/i
const BEARER_WITH_CREDENTIALS = /^bearer\s+\S/i

/**
 * Parses `Authorization: Bearer <key>` (RFC 6750). The scheme is
 * case-insensitive; exactly one token must follow.
 *
 * @example
 * parseAuthorization('Bearer sandbox-free') // { kind: 'bearer', token: 'sandbox-free' }
 */
export const parseAuthorization = (value: string | undefined): AuthorizationHeader => {
  if (value === undefined) return { kind: 'missing' }
  const text = value.trim()
  const match = BEARER.exec(text)
  if (match === null || match[1] === undefined)
    return { kind: 'malformed', tokenSent: BEARER_WITH_CREDENTIALS.test(text) }
  return { kind: 'bearer', token: match[1] }
}

/** True when `key` can be sent as a bearer token (RFC 6750 b64token). */
export const isValidKeyText = (key: string): boolean =>
  key.length <= 200 && BEARER.test(`Bearer ${key}`)
