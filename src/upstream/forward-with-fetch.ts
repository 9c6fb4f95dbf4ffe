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
 * Reads a body as it streams in, stopping past `limit` bytes (fetch has
 * decoded it: the limit bounds the inflated size of a compressed body).
 */
const readBounded = async (
  body: ReadableStream<Uint8Array> | null,
  limit: number,
): Promise<Uint8Array | undefined> => {
  if (body === null) return new Uint8Array(0)
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      reader.cancel().catch(() => {})
      return undefined
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return bytes
}

/**
 * A forwarder over `fetch`, for the runtimes without their own: MSW's
 * (`prepare` is msw's `bypass`, so the request is not intercepted again) and
 * a bare core. fetch decodes compressed bodies, so `Content-Encoding` and
 * `Content-Length` are not passed on. The body is read as it streams in, at
 * most `maxBodyBytes` decoded (issue 31).
 *
 * @example
 * const forward = createFetchForwarder((request) => bypass(request))
 */
export const createFetchForwarder =
  (prepare: (request: Request) => Request = (request) => request): Forwarder =>
  async ({ method, url, headers, body, signal, maxBodyBytes }) => {
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
      const decoded = response.headers.has('content-encoding')
      const declared = Number(response.headers.get('content-length'))
      const bytes =
        !decoded && declared > maxBodyBytes
          ? undefined
          : await readBounded(response.body, maxBodyBytes)
      if (bytes === undefined) {
        response.body?.cancel().catch(() => {})
        return { kind: 'too-large', decoded }
      }
      return { kind: 'answer', status: response.status, headers: pairs, body: bytes }
    } catch (error) {
      return { kind: 'unavailable', reason: `the answer broke off (${reasonOf(error)})` }
    }
  }
