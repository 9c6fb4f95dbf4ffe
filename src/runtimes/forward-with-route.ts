import type { Forwarder } from '../http/forwarder.js'
import { isHopByHop } from '../http/hop-by-hop.js'

/** Playwright's `route.fetch`, as far as the sandbox uses it. */
export type RouteFetch = (options: {
  url: string
  method: string
  headers: Record<string, string>
  postData?: Buffer | undefined
  maxRedirects: number
  timeout: number
}) => Promise<{
  status(): number
  headersArray(): Array<{ name: string; value: string }>
  body(): Promise<Buffer>
}>

// Playwright's request context decodes compressed bodies: these no longer describe the bytes.
const DECODED: ReadonlySet<string> = new Set(['content-encoding', 'content-length'])

/**
 * Upstream mode's forwarder in Playwright: `route.fetch` sends the request
 * from the page's context (its cookies, its proxy settings), redirects
 * returned as they are, and the answer comes back to be checked and fulfilled.
 *
 * @example
 * const response = await sandbox.handle(request, { forward: forwardWithRoute(route) })
 */
export const forwardWithRoute =
  (route: { fetch?: RouteFetch | undefined }): Forwarder =>
  async (request) => {
    if (route.fetch === undefined)
      return { kind: 'unavailable', reason: 'this Playwright route has no fetch()' }
    try {
      const answer = await route.fetch({
        url: request.url,
        method: request.method,
        headers: request.headers,
        postData:
          request.body === null
            ? undefined
            : Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength),
        maxRedirects: 0,
        // The whole exchange, as the sandbox's own timer has it (504 either way).
        timeout: request.timeoutMs,
      })
      const headers: [string, string][] = []
      let declared = Number.NaN
      let encoded = false
      for (const { name, value } of answer.headersArray()) {
        const lower = name.toLowerCase()
        if (lower === 'content-length') declared = Number(value)
        if (lower === 'content-encoding') encoded = true
        if (!DECODED.has(lower) && !isHopByHop(lower)) headers.push([name, value])
      }
      // Playwright's request context has read the body in its own process already: the
      // limit is checked here, and the timeout above stops an endless one there.
      if (!encoded && declared > request.maxBodyBytes) return { kind: 'too-large', decoded: false }
      const body = await answer.body()
      if (body.byteLength > request.maxBodyBytes) return { kind: 'too-large', decoded: encoded }
      return { kind: 'answer', status: answer.status(), headers, body }
    } catch (error) {
      return { kind: 'unavailable', reason: error instanceof Error ? error.message : String(error) }
    }
  }
