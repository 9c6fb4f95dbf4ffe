// The root entry: msw 2 and 3 (the peer range) both export `http` there. The standalone
// server never loads this file (it uses createSandboxCore), so its start-up pays nothing.
import { type HttpHandler, http, type RequestHandler } from 'msw'
import { LIMITS } from '../contract/limits.js'
import type { SandboxRequest, SandboxResponse } from '../http/types.js'
import type { HandleOptions } from '../pipeline/handle-request.js'
import type { OwnHandler } from './check-own-handlers.js'

export interface MswHandlersOptions {
  handle: (request: SandboxRequest, options?: HandleOptions) => Promise<SandboxResponse | null>
  basePath: string
  /** Restrict to one origin; undefined matches any origin. */
  origin: string | undefined
  /** The user's own handlers, for paths the contract does not define (under the base path too). */
  handlers?: readonly OwnHandler[] | undefined
  /** Bodies are read up to this many bytes plus one (the `maxBodyBytes` setting; default 65,536). */
  maxBodyBytes?: number | undefined
}

// setTimeout is looked up at each call, so vitest's fake timers control the delay.
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

const METHODS_WITHOUT_BODY = new Set(['GET', 'HEAD'])

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

/** Turns the core's plain response into what an MSW resolver returns. */
export const toMswResponse = async (
  response: SandboxResponse,
  method = 'GET',
): Promise<Response> => {
  if (response.delayMs !== undefined && response.delayMs > 0) await sleep(response.delayMs)
  // A Response of type "error" is how MSW fails the connection.
  if (response.fault !== undefined) return Response.error()
  // HEAD: the same status and headers as GET, never a body (contract §15).
  const body = method === 'HEAD' ? null : response.body
  return new Response(body, { status: response.status, headers: response.headers })
}

/**
 * The MSW adapter over the core: a catch-all handler below the base path.
 * Requests outside it fall through to the next handler. With the user's own
 * handlers, the order is: the sandbox for the contract's routes, then the
 * user's handlers (for every other path, under the base path too), then the
 * sandbox's answer for what nobody took (401, 429 or 404 route_not_found).
 */
export const createMswHandlers = (options: MswHandlersOptions): RequestHandler[] => {
  // A plain function becomes a handler for every URL: it passes on by returning undefined.
  const own = (options.handlers ?? []).map((handler) =>
    typeof handler === 'function' ? http.all(/.*/, ({ request }) => handler(request)) : handler,
  )
  const catchAll = (handleOptions: HandleOptions): HttpHandler =>
    http.all(matchBasePath(options.origin, options.basePath), async ({ request }) => {
      // MSW hands every handler the same Request: when the user's handlers may
      // come next, read a clone and leave them the body.
      const readable = handleOptions.passUnknownRoutes === true ? request.clone() : request
      const response = await options.handle(
        await toSandboxRequest(readable, options.maxBodyBytes),
        handleOptions,
      )
      return response === null ? undefined : toMswResponse(response, request.method)
    })
  if (own.length === 0) return [catchAll({})]
  return [catchAll({ passUnknownRoutes: true }), ...own, catchAll({})]
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
