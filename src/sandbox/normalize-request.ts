import { isAbsoluteUrl } from '../http/request-url.js'
import type { SandboxRequest } from '../http/types.js'

/**
 * What `handle()` takes: a `SandboxRequest`, or something close to it. Header
 * names and the method may be in any case; the body may be bytes, a string,
 * or any other value, which is sent as JSON.
 */
export interface HandleInput {
  method: string
  /** An absolute URL, e.g. `http://localhost/v1/pets`. */
  url: string | URL
  headers?: Readonly<Record<string, string | undefined>> | Headers | undefined
  body?: Uint8Array | ArrayBuffer | string | object | null | undefined
  clientAddress?: string | undefined
}

const encoder = new TextEncoder()

/**
 * Headers with lower-case names, values of names that differ only in case
 * joined with ", " (in the order given). Names already in lower case (what
 * fetch, undici and MSW give) are copied into a plain object directly (a Map
 * and `Object.fromEntries` per request was a tenth of `handle()`'s time,
 * decision 0064); a name with a capital, which may meet another, or a header
 * named `__proto__`, which must stay an own header, takes the Map's way.
 */
const lowerCaseHeaders = (
  source: Readonly<Record<string, string | undefined>>,
): Record<string, string> => {
  const headers: Record<string, string> = {}
  for (const name in source) {
    if (!Object.hasOwn(source, name)) continue
    const value = source[name]
    if (value === undefined) continue
    if (name === '__proto__' || name.toLowerCase() !== name) return viaMap(source)
    headers[name] = String(value)
  }
  return headers
}

const viaMap = (source: Readonly<Record<string, string | undefined>>): Record<string, string> => {
  const merged = new Map<string, string>()
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined) continue
    const lower = name.toLowerCase()
    const before = merged.get(lower)
    merged.set(lower, before === undefined ? String(value) : `${before}, ${value}`)
  }
  return Object.fromEntries(merged)
}

const toBody = (body: HandleInput['body']): Uint8Array | null => {
  if (body === undefined || body === null) return null
  if (body instanceof Uint8Array) return body
  if (body instanceof ArrayBuffer) return new Uint8Array(body)
  if (typeof body === 'string') return encoder.encode(body)
  return encoder.encode(JSON.stringify(body))
}

/**
 * Turns what a caller passed to `handle()` into the core's plain request, or
 * fails fast on a programming error (a relative URL, a missing method).
 *
 * @example
 * normalizeRequest({ method: 'get', url: 'http://x/v1/pets', headers: { Authorization: 'Bearer sandbox-free' } })
 * // { method: 'GET', headers: { authorization: 'Bearer sandbox-free' }, body: null, … }
 */
export const normalizeRequest = (input: HandleInput): SandboxRequest => {
  if (typeof input !== 'object' || input === null)
    throw new TypeError('Failed to handle the request: pass { method, url, headers?, body? }.')
  if (typeof input.method !== 'string' || input.method.trim() === '')
    throw new TypeError(
      'Failed to handle the request: method must be a non-empty string such as "GET".',
    )
  const url = String(input.url)
  if (!isAbsoluteUrl(url)) {
    throw new TypeError(
      `Failed to handle the request: url "${url}" is not an absolute URL. Pass one with an origin, e.g. "http://localhost${url.startsWith('/') ? url : `/${url}`}".`,
    )
  }
  const source = input.headers
  let headers: Record<string, string>
  if (source instanceof Headers) {
    // A Map, then own properties: a header named `__proto__` is kept like any other.
    const merged = new Map<string, string>()
    source.forEach((value, name) => {
      merged.set(name, value)
    })
    headers = Object.fromEntries(merged)
  } else headers = source === undefined ? {} : lowerCaseHeaders(source)
  return {
    method: input.method.toUpperCase(),
    url,
    headers,
    body: toBody(input.body),
    clientAddress: input.clientAddress,
  }
}
