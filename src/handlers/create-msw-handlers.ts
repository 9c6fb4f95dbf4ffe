// The root entry: msw 2 and 3 (the peer range) both export `http` there. The standalone
// server never loads this file (it uses createSandboxCore), so its start-up pays nothing.
import { bypass, type HttpHandler, http, type RequestHandler } from 'msw'
import { LIMITS } from '../contract/limits.js'
import type { Forwarder } from '../http/forwarder.js'
import type { SandboxRequest } from '../http/types.js'
import type { Answer, HandleOptions } from '../pipeline/handle-request.js'
import { faultToResponse } from './fault-to-response.js'
import type { RawOwnHandler } from './own-operations.js'

export interface MswHandlersOptions {
  answer: (request: SandboxRequest, options?: HandleOptions) => Promise<Answer | null>
  basePath: string
  /** Restrict to one origin; undefined matches any origin. */
  origin: string | undefined
  /** Your handlers marked passthrough: offered a request below the base path before the sandbox checks anything. */
  passthrough?: readonly RawOwnHandler[] | undefined
  /** Your other handlers, as given: they answer what is outside the sandbox (below the base path, the core runs them). */
  outside?: readonly RawOwnHandler[] | undefined
  /** Bodies are read up to this many bytes plus one (the `maxBodyBytes` setting; default 65,536). */
  maxBodyBytes?: number | undefined
}

// setTimeout is looked up at each call, so vitest's fake timers control the delay.
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Waits out a held answer's delay, or until the client gives up (the request's
 * signal: MSW in Node passes fetch's own). Resolves true when it gave up.
 */
const holdUnlessAborted = (ms: number, signal: AbortSignal | undefined): Promise<boolean> => {
  if (signal === undefined) return sleep(ms).then(() => false)
  if (signal.aborted) return Promise.resolve(true)
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve(false)
    }, ms)
    const onAbort = (): void => {
      clearTimeout(timer)
      resolve(true)
    }
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

const METHODS_WITHOUT_BODY = new Set(['GET', 'HEAD'])
// A Response with one of these statuses cannot have a body.
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([204, 205, 304])

// Upstream mode forwards with fetch, marked with msw's `bypass` so MSW lets it through.
// Imported on first use: a sandbox without an upstream never loads it.
let fetchForwarder: Promise<Forwarder> | undefined
const forward: Forwarder = async (request) => {
  fetchForwarder ??= import('../upstream/forward-with-fetch.js').then(({ createFetchForwarder }) =>
    createFetchForwarder((outgoing) => bypass(outgoing)),
  )
  return (await fetchForwarder)(request)
}

/** Reads at most the body limit plus one byte, so an oversized body is known to be one without holding all of it. */
const readBody = async (
  request: Request,
  maxBodyBytes: number = LIMITS.maxBodyBytes,
): Promise<Uint8Array | null> => {
  if (METHODS_WITHOUT_BODY.has(request.method) || request.body === null) return null
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  let done = false
  while (!done && size <= maxBodyBytes) {
    const chunk = await reader.read()
    done = chunk.done
    if (chunk.value !== undefined) {
      chunks.push(chunk.value)
      size += chunk.value.byteLength
    }
  }
  // Not awaited: under MSW in Node, cancelling a body that was read whole never
  // settles, and awaiting it hung every 413 answer.
  if (!done) reader.cancel().catch(() => {})
  const body = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    body.set(chunk, offset)
    offset += chunk.byteLength
  }
  return body
}

/** Turns a Fetch Request into the core's plain request. */
export const toSandboxRequest = async (
  request: Request,
  maxBodyBytes?: number,
): Promise<SandboxRequest> => ({
  method: request.method,
  url: request.url,
  headers: Object.fromEntries(request.headers),
  body: await readBody(request, maxBodyBytes),
})

/**
 * Turns the core's answer into what an MSW resolver returns. A held answer (a
 * delay, a `timeout`) the client gives up on marks its journal entry
 * `aborted` (decision 0032) and fails at once: nobody is waiting for it.
 */
const toMswResponse = async (answer: Answer, request: Request): Promise<Response> => {
  const { response } = answer
  const method = request.method
  if (
    response.delayMs !== undefined &&
    response.delayMs > 0 &&
    (await holdUnlessAborted(response.delayMs, request.signal))
  ) {
    await answer.markAborted()
    return Response.error()
  }
  if (response.fault !== undefined) {
    // A Response of type "error" is how MSW fails the connection.
    if (response.delivery === undefined) return Response.error()
    // A fault inside the answer (contract §19): its shaped bytes as a body stream.
    return faultToResponse(response.delivery, {
      method,
      url: request.url,
      signal: request.signal,
      onGone: () => {
        answer.markAborted().catch(() => {})
      },
    })
  }
  const exact = response.exact
  if (exact !== undefined) {
    // An upstream's answer as received: its headers in order, repeated ones kept, its bytes.
    const headers = new Headers()
    for (const [name, value] of exact.headers) headers.append(name, value)
    const empty = method === 'HEAD' || NULL_BODY_STATUSES.has(response.status)
    return new Response(empty ? null : (exact.body as Uint8Array<ArrayBuffer>), {
      status: response.status,
      headers,
    })
  }
  // HEAD: the same status and headers as GET, never a body (contract §15); bytes as they are.
  const body =
    method === 'HEAD'
      ? null
      : ((response.bytes as Uint8Array<ArrayBuffer> | undefined) ?? response.body)
  const headers =
    response.bytes === undefined || method === 'HEAD'
      ? response.headers
      : { ...response.headers, 'Content-Length': String(response.bytes.byteLength) }
  return new Response(body, { status: response.status, headers })
}

/**
 * The MSW adapter over the core: a catch-all handler below the base path.
 * Requests outside it fall through to the next handler. With your own
 * handlers (decision 0042): below the base path, the sandbox answers the
 * contract's routes, then your passthrough handlers are offered the rest,
 * then the sandbox answers it (your other handlers inside its pipeline, else
 * 401, 429 or 404 route_not_found); outside it, your handlers as they are.
 */
export const createMswHandlers = (options: MswHandlersOptions): RequestHandler[] => {
  // A plain function becomes a handler for every URL: it passes on by returning undefined.
  const toMsw = (handler: RawOwnHandler): RequestHandler =>
    typeof handler === 'function' ? http.all(/.*/, ({ request }) => handler(request)) : handler
  const passthrough = (options.passthrough ?? []).map(toMsw)
  const outside = (options.outside ?? []).map(toMsw)
  const catchAll = (handleOptions: HandleOptions): HttpHandler => {
    const withForward: HandleOptions = { ...handleOptions, forward }
    return http.all(matchBasePath(options.origin, options.basePath), async ({ request }) => {
      // MSW hands every handler the same Request: when the user's handlers may
      // come next, read a clone and leave them the body.
      const readable = handleOptions.passUnknownRoutes === true ? request.clone() : request
      const answer = await options.answer(
        await toSandboxRequest(readable, options.maxBodyBytes),
        withForward,
      )
      return answer === null ? undefined : toMswResponse(answer, request)
    })
  }
  const sandbox = catchAll({})
  if (passthrough.length === 0 && outside.length === 0) return [sandbox]
  // Decision 0042: below the base path, passthrough handlers first (the sandbox passing
  // what it has no route for), then the sandbox (your other handlers run inside it);
  // outside it, your handlers as they are.
  const first =
    passthrough.length === 0 ? [] : [catchAll({ passUnknownRoutes: true }), ...passthrough]
  return [...first, sandbox, ...outside]
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')

/**
 * A RegExp without capture groups, rather than a path pattern: msw decodes a
 * pattern's parameters with decodeURIComponent and threw URIError on `%ff`
 * before the sandbox saw the request (issue 10). The core decodes and answers.
 */
const matchBasePath = (origin: string | undefined, basePath: string): RegExp =>
  new RegExp(
    `^${origin === undefined ? '[a-z][a-z0-9+.-]*://[^/?#]*' : escapeRegExp(origin)}${escapeRegExp(basePath)}(?:/[^?#]*)?$`,
    'i',
  )
