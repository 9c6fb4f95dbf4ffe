import { redactionHint } from './redact-secrets.js'

/** FNV-1a, 32 bits, over UTF-16 code units: stable everywhere, no crypto needed (the hint is not a secret's proof). */
const fnv1a = (text: string): string => {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return (hash >>> 0).toString(16).padStart(8, '0')
}

/**
 * How the journal names a credential without showing it: the redaction hint
 * (at most four characters, never more than half) and eight hex digits of a
 * hash of the whole token, so that two keys with the same start stay apart.
 * The same token gives the same ref in every runtime and in a HAR's report.
 *
 * @example
 * keyRef('sandbox-free') // 'sand…#4a8d0c2e'
 */
export const keyRef = (token: string): string => `${redactionHint(token)}#${fnv1a(token)}`

/**
 * The caller of contract §18: a valid key, or the client's address.
 *
 * @example
 * callerOf({ token: 'sandbox-free', keyValid: true, clientAddress: '127.0.0.1' }) // 'key:sand…#…'
 */
export const callerOf = (input: {
  token: string | undefined
  keyValid: boolean
  clientAddress: string | undefined
}): string =>
  input.keyValid && input.token !== undefined
    ? `key:${keyRef(input.token)}`
    : `anon:${input.clientAddress ?? 'unknown'}`
