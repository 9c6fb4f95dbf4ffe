/**
 * Contract §14: secrets are redacted wherever they could be recorded (the
 * journal, the request log, HAR files, the dashboard). Headers that carry
 * credentials keep their scheme and a short hint; query parameters named like
 * a key or a token are replaced.
 */

/** Headers whose values are credentials. */
export const SECRET_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
])

/** Query parameter names that carry a key or a token (case-insensitive, `-` and `_` alike). */
const SECRET_PARAM =
  /^(?:api[-_]?key|apikey|key|token|access[-_]?token|auth|secret|password|session[-_]?token)$/i

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
  if (space === -1) return '(redacted)'
  const scheme = value.slice(0, space)
  const token = value.slice(space + 1).trim()
  return `${scheme} ${token.slice(0, Math.min(4, Math.floor(token.length / 2)))}…(redacted)`
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
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue
    const lower = name.toLowerCase()
    if (!SECRET_HEADERS.has(lower)) out[lower] = value
    else
      out[lower] =
        lower === 'authorization' || lower === 'proxy-authorization'
          ? redactCredential(value)
          : '(redacted)'
  }
  return out
}

/**
 * A URL (absolute, or a path with a query) with the values of secret-looking
 * query parameters replaced by `(redacted)`; anything else is kept as sent.
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
    let name = rawName
    try {
      name = decodeURIComponent(rawName.replaceAll('+', ' '))
    } catch {
      // A malformed name is kept as sent; it cannot match a secret name anyway.
    }
    if (!SECRET_PARAM.test(name)) return part
    changed = true
    return `${rawName}=(redacted)`
  })
  if (!changed) return url
  return `${url.slice(0, query + 1)}${parts.join('&')}${hash === -1 ? '' : url.slice(hash)}`
}
