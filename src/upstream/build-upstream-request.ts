import { connectionTokens, isHopByHop } from '../http/hop-by-hop.js'
import type { SandboxRequest } from '../http/types.js'

/**
 * The query without the sandbox's own parameters (every name starting `__`:
 * `__scenario`, `__session`, `__delay`…), the others kept byte for byte and
 * in order; '' when none is left, else with its `?`.
 *
 * @example
 * stripSandboxParams('?limit=5&__scenario=slow') // '?limit=5'
 */
export const stripSandboxParams = (search: string): string => {
  if (search === '' || search === '?') return ''
  const kept: string[] = []
  for (const part of search.slice(1).split('&')) {
    if (part === '') continue
    const eq = part.indexOf('=')
    const raw = eq === -1 ? part : part.slice(0, eq)
    let name = raw
    try {
      name = decodeURIComponent(raw.replaceAll('+', ' '))
    } catch {}
    if (!name.startsWith('__')) kept.push(part)
  }
  return kept.length === 0 ? '' : `?${kept.join('&')}`
}

/**
 * The headers sent upstream: the client's, without the sandbox's own
 * (`X-Sandbox-*`), hop-by-hop headers, `Host` (the upstream's own is sent)
 * and `Content-Length` (the body's is sent); `Authorization` replaced when the
 * sandbox holds the upstream key.
 *
 * @example
 * upstreamHeaders(request.headers, 'real-key') // { accept: '…', authorization: 'Bearer real-key' }
 */
export const upstreamHeaders = (
  headers: SandboxRequest['headers'],
  key: string | undefined,
): Record<string, string> => {
  const listed = connectionTokens(headers.connection)
  // A Map, then an object made from it: a header named `__proto__` stays a header (issue 24).
  const out = new Map<string, string>()
  for (const name in headers) {
    const value = headers[name]
    if (value === undefined) continue
    const lower = name.toLowerCase()
    if (
      lower === 'host' ||
      lower === 'content-length' ||
      lower.startsWith('x-sandbox-') ||
      isHopByHop(lower, listed)
    )
      continue
    out.set(lower, value)
  }
  if (key !== undefined) out.set('authorization', `Bearer ${key}`)
  return Object.fromEntries(out)
}

/**
 * The upstream URL of a request: the upstream's base URL, the path below the
 * sandbox's base path (as sent), the query without the sandbox's parameters.
 *
 * @example
 * upstreamUrl('https://staging.example.test/v1', '/pets', '?limit=5&__session=w1')
 * // 'https://staging.example.test/v1/pets?limit=5'
 */
export const upstreamUrl = (base: string, path: string, search: string): string =>
  `${base}${path}${stripSandboxParams(search)}`
