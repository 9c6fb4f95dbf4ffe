import type { Forwarder } from '../http/forwarder.js'
import { isHopByHop } from '../http/hop-by-hop.js'

// fetch decodes a content-encoded body itself: these would no longer describe the bytes passed on.
const DECODED_BY_FETCH: ReadonlySet<string> = new Set(['content-encoding', 'content-length'])

const reasonOf = (error: unknown): string => {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause
  if (typeof cause?.code === 'string') return cause.code
  if (typeof cause?.message === 'string') return cause.message
  return error instanceof Error ? error.message : String(error)
}

/**
 * A forwarder over `fetch`, for the runtimes without their own: MSW's
 * (`prepare` is msw's `bypass`, so the request is not intercepted again) and
 * a bare core. fetch decodes compressed bodies, so `Content-Encoding` and
 * `Content-Length` are not passed on.
 *
 * @example
 * const forward = createFetchForwarder((request) => bypass(request))
 */
export const createFetchForwarder =
  (prepare: (request: Request) => Request = (request) => request): Forwarder =>
  async ({ method, url, headers, body, signal }) => {
    let response: Response
    try {
      response = await fetch(
        prepare(
          new Request(url, {
            method,
            headers,
            body:
              method === 'GET' || method === 'HEAD' || body === null ? null : new Uint8Array(body),
            redirect: 'manual',
            signal,
          }),
        ),
      )
    } catch (error) {
      return { kind: 'unavailable', reason: reasonOf(error) }
    }
    const pairs: [string, string][] = []
    response.headers.forEach((value, name) => {
      if (name === 'set-cookie' || DECODED_BY_FETCH.has(name) || isHopByHop(name)) return
      pairs.push([name, value])
    })
    for (const cookie of response.headers.getSetCookie?.() ?? []) pairs.push(['set-cookie', cookie])
    try {
      const bytes = new Uint8Array(await response.arrayBuffer())
      return { kind: 'answer', status: response.status, headers: pairs, body: bytes }
    } catch (error) {
      return { kind: 'unavailable', reason: `the answer broke off (${reasonOf(error)})` }
    }
  }
