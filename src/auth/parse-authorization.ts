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
  if (value === undefined) return MISSING
  // A client sends the same header request after request: the last one's reading is kept
  // (frozen, so no caller can change what the next one gets), decision 0064.
  if (value === lastValue) return lastReading
  const text = value.trim()
  const match = BEARER.exec(text)
  const reading: AuthorizationHeader =
    match === null || match[1] === undefined
      ? { kind: 'malformed', tokenSent: BEARER_WITH_CREDENTIALS.test(text) }
      : { kind: 'bearer', token: match[1] }
  lastValue = value
  lastReading = Object.freeze(reading)
  return lastReading
}

const MISSING: AuthorizationHeader = Object.freeze({ kind: 'missing' })
let lastValue: string | undefined
let lastReading: AuthorizationHeader = MISSING

/** True when `key` can be sent as a bearer token (RFC 6750 b64token). */
export const isValidKeyText = (key: string): boolean =>
  key.length <= 200 && BEARER.test(`Bearer ${key}`)
