import type { IncomingMessage } from 'node:http'
import type { SandboxRequest } from '../http/types.js'
import { readAuthorization } from './read-authorization.js'

// RFC 3986 reg-name / IPv4 / bracketed IPv6, with an optional port. Anything
// else in Host (spaces, slashes, '@', empty) is replaced by the server's own address.
const VALID_HOST = /^(?:[A-Za-z0-9._~-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/

// Every request of a client names the same Host: the last one checked is remembered.
let lastHost = ''
let lastOrigin = ''

/** The origin a request addressed: its Host header when well formed, else the fallback. */
export const requestOrigin = (req: IncomingMessage, fallbackHost: string): string => {
  const host = req.headers.host
  if (host === lastHost && host !== undefined) return lastOrigin
  if (host === undefined || !VALID_HOST.test(host)) return `http://${fallbackHost}`
  lastHost = host
  lastOrigin = `http://${host}`
  return lastOrigin
}

/**
 * The absolute URL of a request, or undefined when its target is not a path
 * (`*`, or an absolute-form target that does not parse).
 */
export const requestUrl = (
  req: IncomingMessage,
  origin: string,
  path = req.url ?? '/',
): string | undefined => {
  if (path.startsWith('/')) return `${origin}${path}`
  try {
    const url = new URL(path)
    return url.protocol === 'http:' || url.protocol === 'https:'
      ? `${origin}${url.pathname}${url.search}`
      : undefined
  } catch {
    return undefined
  }
}

/**
 * Builds the core's plain request from node:http's IncomingMessage, without
 * Fetch objects. `headers` is node's own lower-case record (repeated headers
 * already joined, except `set-cookie`, which the API never reads, and the
 * ones node keeps only the first of: of those, `Authorization` is read whole,
 * as Fetch reads it, by readAuthorization).
 *
 * @example
 * const request = buildSandboxRequest(req, { url, body })
 */
export const buildSandboxRequest = (
  req: IncomingMessage,
  input: { url: string; body: Uint8Array | null },
): SandboxRequest => {
  const authorization = readAuthorization(req)
  return {
    method: req.method ?? 'GET',
    url: input.url,
    // A copy only for repeated Authorization lines: node's record otherwise, as it is.
    headers: (authorization === req.headers.authorization
      ? req.headers
      : { ...req.headers, authorization }) as Record<string, string | undefined>,
    body: input.body,
    clientAddress: req.socket.remoteAddress,
  }
}
