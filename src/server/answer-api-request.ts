import type { IncomingMessage, ServerResponse } from 'node:http'
import { LIMITS } from '../contract/limits.js'
import type { SandboxRequest, SandboxResponse } from '../core/types.js'
import type { SandboxCore } from '../sandbox/create-sandbox-core.js'
import { buildSandboxRequest, requestOrigin, requestUrl } from './build-sandbox-request.js'
import { type BodyReadResult, readRequestBody } from './read-request-body.js'
import { type HeldAnswers, writeSandboxResponse } from './write-sandbox-response.js'

/** What answering an API request needs from its server (or middleware). */
export interface ApiAnswerContext {
  sandbox: SandboxCore
  held: HeldAnswers
  /** Host used when a request's Host header is missing or malformed. */
  fallbackHost: string
  /** While the sandbox resets, a promise that new requests wait for. */
  gate(): Promise<void> | undefined
  /** Told about each answered request (the dashboard's log), before it is written. */
  onAnswered?: ((request: SandboxRequest, response: SandboxResponse) => void) | undefined
}

export interface AnswerOptions {
  /** The request target to use instead of `req.url` (express's `originalUrl` under a mount path). */
  path?: string | undefined
  /** The body, when something before us has read the stream already. */
  body?: Uint8Array | undefined
}

// The core reads only the length of an oversized body, so one shared buffer
// of cap + 1 bytes stands for every body that was refused without reading it.
const OVERSIZED = new Uint8Array(LIMITS.maxBodyBytes + 1)

/**
 * Answers a request below the API's base path through the core, without
 * Fetch objects. Resolves false when the core does not own the request (the
 * caller passes it on). An oversized body is not buffered: the core still
 * decides the answer (401 and 429 come first), and the connection closes.
 *
 * @example
 * if (!(await answerApiRequest(ctx, req, res))) next()
 */
export const answerApiRequest = async (
  ctx: ApiAnswerContext,
  req: IncomingMessage,
  res: ServerResponse,
  options: AnswerOptions = {},
): Promise<boolean> => {
  const url = requestUrl(req, requestOrigin(req, ctx.fallbackHost), options.path)
  if (url === undefined) return false
  const read: BodyReadResult =
    options.body !== undefined
      ? options.body.byteLength > LIMITS.maxBodyBytes
        ? { kind: 'too-large' }
        : { kind: 'body', body: options.body }
      : await readRequestBody(req, LIMITS.maxBodyBytes)
  if (read.kind === 'aborted') {
    req.socket.destroy()
    return true
  }
  const tooLarge = read.kind === 'too-large'
  const gate = ctx.gate()
  if (gate !== undefined) await gate
  const request = buildSandboxRequest(req, { url, body: tooLarge ? OVERSIZED : read.body })
  const response = await ctx.sandbox.handle(request)
  if (response === null) return false
  if (tooLarge) {
    // The rest of the body is never read: close once answered, discarding what still arrives.
    response.headers.Connection = 'close'
    req.resume()
  }
  ctx.onAnswered?.(tooLarge ? { ...request, body: null } : request, response)
  await writeSandboxResponse({ req, res, response, held: ctx.held })
  return true
}
