/**
 * Secrets kept out of everything the sandbox records: the request journal,
 * the server's log and the dashboard (contract §14). See SECURITY.md.
 *
 * Headers: `Authorization` and `Proxy-Authorization` keep their scheme and a
 * hint of the credential (`Bearer sand…(redacted)`); `X-Api-Key` keeps the
 * hint; `Cookie` keeps the cookie names only; any other header whose name
 * reads as a key, token, secret or password (the rule below) is `(redacted)`.
 *
 * Query parameters: a parameter whose name, split into words at `-`, `_`,
 * `.` and camelCase humps, ends in `key`, `apikey`, `token`, `secret`,
 * `password`, `passwd`, `pwd`, `signature`, `sig`, `auth`, `credential` or
 * `credentials` (`api_key`, `apiKey`, `key`, `token`, `access_token`,
 * `X-Amz-Signature`, `client_secret`...) keeps its name; its value becomes `(redacted)`.
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

/** True when a header or parameter name reads as a secret's (see the rule above). */
export const isSecretName = (name: string): boolean => {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '')
  const last = words[words.length - 1]
  return last !== undefined && SECRET_WORDS.has(last)
}

/** At most four characters, and never more than half, of a credential. */
const hint = (token: string): string =>
  token === ''
    ? REDACTED
    : `${token.slice(0, Math.min(4, Math.floor(token.length / 2)))}…${REDACTED}`

const redactCredentials = (value: string): string => {
  const trimmed = value.trim()
  const space = trimmed.indexOf(' ')
  if (space === -1) return REDACTED
  return `${trimmed.slice(0, space)} ${hint(trimmed.slice(space + 1).trim())}`
}

const redactCookie = (value: string): string =>
  value
    .split(';')
    .map((part) => {
      const eq = part.indexOf('=')
      return eq === -1 ? REDACTED : `${part.slice(0, eq).trim()}=${REDACTED}`
    })
    .join('; ')

/** One header's value as it may be recorded. */
export const redactHeader = (name: string, value: string): string => {
  switch (name.toLowerCase()) {
    case 'authorization':
    case 'proxy-authorization':
      return redactCredentials(value)
    case 'x-api-key':
      return hint(value.trim())
    case 'cookie':
      return redactCookie(value)
    default:
      return isSecretName(name) ? REDACTED : value
  }
}

/**
 * A copy of `headers` safe to record.
 *
 * @example
 * redactHeaders({ authorization: 'Bearer sandbox-free', cookie: 'sid=abc' })
 * // { authorization: 'Bearer sand…(redacted)', cookie: 'sid=(redacted)' }
 */
export const redactHeaders = <V extends string | readonly string[] | undefined>(
  headers: Readonly<Record<string, V>>,
): Record<string, V> => {
  const out: Record<string, V> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) out[name] = value
    else if (typeof value === 'string') out[name] = redactHeader(name, value) as V
    else out[name] = (value as readonly string[]).map((v) => redactHeader(name, v)) as unknown as V
  }
  return out
}

const decodeName = (raw: string): string => {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '))
  } catch {
    return raw
  }
}

/**
 * A path and query safe to record: the value of every secret-named query
 * parameter replaced, everything else byte for byte as sent.
 *
 * @example
 * redactUrl('/v1/pets?limit=5&api_key=abc') // '/v1/pets?limit=5&api_key=(redacted)'
 */
export const redactUrl = (pathAndQuery: string): string => {
  const query = pathAndQuery.indexOf('?')
  if (query === -1) return pathAndQuery
  const hash = pathAndQuery.indexOf('#', query)
  const search = pathAndQuery.slice(query + 1, hash === -1 ? undefined : hash)
  const redacted = search
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=')
      const name = eq === -1 ? pair : pair.slice(0, eq)
      return eq !== -1 && isSecretName(decodeName(name)) ? `${name}=${REDACTED}` : pair
    })
    .join('&')
  return `${pathAndQuery.slice(0, query + 1)}${redacted}${hash === -1 ? '' : pathAndQuery.slice(hash)}`
}
