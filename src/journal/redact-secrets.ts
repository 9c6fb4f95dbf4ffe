import { replaceKnownSecret } from './known-secret-pattern.js'

/**
 * Contract §14: secrets are redacted wherever they could be recorded (the
 * journal, the request log, HAR files, the dashboard). See SECURITY.md.
 *
 * Headers (names lower-cased): `Authorization` and `Proxy-Authorization` keep
 * their scheme and a hint of the credential (`Bearer sand…(redacted)`);
 * `X-Api-Key`, `Cookie`, `Set-Cookie` and any other header whose name reads
 * as a key, token, secret or password (the rule below) become `(redacted)`.
 *
 * Query parameters: a parameter whose name, split into words at `-`, `_`, `.`
 * and camelCase humps, ends in `key`, `apikey`, `token`, `secret`,
 * `password`, `passwd`, `pwd`, `signature`, `sig`, `auth`, `credential` or
 * `credentials` (`api_key`, `apiKey`, `key`, `token`, `access_token`,
 * `session_token`, `X-Amz-Signature`, `client_secret`...) keeps its name; its
 * value becomes `(redacted)`.
 */

const SECRET_WORDS = new Set([
  'key',
  'apikey',
  'token',
  'secret',
  'password',
  'passwd',
  'pwd',
  'signature',
  'sig',
  'auth',
  'credential',
  'credentials',
])

const REDACTED = '(redacted)'

/** True when a header or query parameter name reads as a secret's (see the rule above). */
export const isSecretName = (name: string): boolean => {
  // The same few names come with every request (Redis mode redacts each entry it writes).
  // Only short names are kept: a client chooses them, and a header name may be 16 KiB long.
  const kept = name.length <= SECRET_NAME_KEPT_CHARS
  let secret = kept ? secretNames.get(name) : undefined
  if (secret === undefined) {
    const words = name
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w !== '')
    const last = words[words.length - 1]
    secret = last !== undefined && SECRET_WORDS.has(last)
    // Names are the client's to choose: a bounded memory, started over when full.
    if (kept) {
      if (secretNames.size >= SECRET_NAMES_KEPT) secretNames.clear()
      secretNames.set(name, secret)
    }
  }
  return secret
}

const SECRET_NAMES_KEPT = 1024
const SECRET_NAME_KEPT_CHARS = 64
const secretNames = new Map<string, boolean>()

/**
 * At most four characters, and never more than half, of a credential, then `…`.
 *
 * @example
 * redactionHint('sandbox-free') // 'sand…'
 */
export const redactionHint = (token: string): string =>
  `${token.slice(0, Math.min(4, Math.floor(token.length / 2)))}…`

const hint = (token: string): string => `${redactionHint(token)}${REDACTED}`

/**
 * Keeps `Bearer sandbox-free` as `Bearer sand…(redacted)`: enough to tell keys
 * apart, not to reuse one. At most half of a short token is kept, so a key of
 * four characters or fewer never appears whole.
 *
 * @example
 * redactCredential('Bearer sandbox-free') // 'Bearer sand…(redacted)'
 */
export const redactCredential = (value: string): string => {
  const space = value.indexOf(' ')
  if (space === -1) return REDACTED
  const scheme = value.slice(0, space)
  return `${scheme} ${hint(value.slice(space + 1).trim())}`
}

/**
 * `text` with every occurrence of a secret the sandbox knows (the upstream key),
 * as it is, JSON-escaped (`\/`, `\u0041`) or percent-encoded, replaced by its
 * hint: an upstream that echoes the key in a header or a body has it recorded
 * only as `abcd…(redacted)` (issue 31). Unchanged without one.
 *
 * @example
 * redactKnownSecret('{"sent":"Bearer s3cr3t-staging"}', 's3cr3t-staging') // '{"sent":"Bearer s3cr…(redacted)"}'
 */
export const redactKnownSecret = (text: string, secret: string | undefined): string =>
  secret === undefined || secret === '' ? text : replaceKnownSecret(text, secret, hint(secret))

/** A string of bytes, one character (U+0000-U+00FF) per byte, as `btoa` takes them. */
const binaryOf = (text: string): string => String.fromCharCode(...utf8.encode(text))
const utf8 = new TextEncoder()

/**
 * `redactKnownSecret` over bytes that are not UTF-8 text, given as a binary
 * string (one character per byte): the secret's UTF-8 bytes, as they are,
 * JSON-escaped or percent-encoded, become the hint's bytes. A body recorded in
 * base64 has the key redacted before it is encoded (issue 31).
 *
 * @example
 * btoa(redactKnownSecretInBinary(binary, 's3cr3t-staging'))
 */
export const redactKnownSecretInBinary = (binary: string, secret: string | undefined): string =>
  secret === undefined || secret === ''
    ? binary
    : replaceKnownSecret(binary, binaryOf(secret), binaryOf(hint(secret)))

/** One header's value as it may be recorded; `name` in any case. */
export const redactHeader = (name: string, value: string): string => {
  switch (name.toLowerCase()) {
    case 'authorization':
    case 'proxy-authorization':
      return redactCredential(value)
    case 'x-api-key':
    case 'cookie':
    case 'set-cookie':
      return REDACTED
    default:
      return isSecretName(name) ? REDACTED : value
  }
}

/**
 * A copy of request or response headers with credentials redacted; names lower-cased.
 *
 * @example
 * redactHeaders({ Authorization: 'Bearer sandbox-free', Cookie: 'a=b' })
 * // { authorization: 'Bearer sand…(redacted)', cookie: '(redacted)' }
 */
export const redactHeaders = (
  headers: Readonly<Record<string, string | undefined>>,
): Record<string, string> => {
  const entries: [string, string][] = []
  for (const name in headers) {
    const value = headers[name]
    if (value === undefined || !Object.hasOwn(headers, name)) continue
    entries.push([name.toLowerCase(), redactHeader(name, value)])
  }
  // Own properties (Object.fromEntries): a header named `__proto__` is kept like any other.
  return Object.fromEntries(entries)
}

const decodeName = (raw: string): string => {
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '))
  } catch {
    // A malformed name is kept as sent.
    return raw
  }
}

/**
 * A URL (absolute, or a path with a query) with the values of secret-named
 * query parameters replaced by `(redacted)`; anything else is kept byte for byte.
 *
 * @example
 * redactUrl('/v1/pets?api_key=abc&limit=5') // '/v1/pets?api_key=(redacted)&limit=5'
 */
export const redactUrl = (url: string): string => {
  const query = url.indexOf('?')
  if (query === -1) return url
  const hash = url.indexOf('#', query)
  const search = url.slice(query + 1, hash === -1 ? undefined : hash)
  let changed = false
  const parts = search.split('&').map((part) => {
    const eq = part.indexOf('=')
    const rawName = eq === -1 ? part : part.slice(0, eq)
    if (eq === -1 || !isSecretName(decodeName(rawName))) return part
    changed = true
    return `${rawName}=${REDACTED}`
  })
  if (!changed) return url
  return `${url.slice(0, query + 1)}${parts.join('&')}${hash === -1 ? '' : url.slice(hash)}`
}
