import type { IncomingMessage, ServerResponse } from 'node:http'
import { LIMITS } from '../contract/limits.js'
import type { JournalEntry } from '../journal/journal.js'
import type { SandboxCore } from '../sandbox/create-sandbox-core.js'
import { buildSandboxRequest, requestOrigin, requestUrl } from './build-sandbox-request.js'
import { type BodyReadResult, readRequestBody } from './read-request-body.js'
import { type HeldAnswers, writeSandboxResponse } from './write-sandbox-response.js'

/** What answering an API request needs from its server (or middleware). */
export interface ApiAnswerContext {
  sandbox: SandboxCore<string>
  held: HeldAnswers
  /** Host used when a request's Host header is missing or malformed. */
  fallbackHost: string
  /** Told about each answered request's journal entry (the request log). */
  onAnswered?: ((req: IncomingMessage, entry: JournalEntry) => void) | undefined
}

export interface AnswerOptions {
  /** The request target to use instead of `req.url` (express's `originalUrl` under a mount path). */
  path?: string | undefined
  /** The body, when something before us has read the stream already (null: it had none). */
  body?: Uint8Array | null | undefined
  /** Resolve false, before authentication, for a path no API route matches (the user's handlers come next). */
  passUnknownRoutes?: boolean | undefined
  /** Appended to the 404 for the bare base path (the server's dashboard and OpenAPI document). */
  basePathHint?: string | undefined
}

// The core reads only the length of an oversized body, so one shared buffer
// of cap + 1 bytes stands for every body that was refused without reading it.
export const OVERSIZED = new Uint8Array(LIMITS.maxBodyBytes + 1)

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
      ? options.body !== null && options.body.byteLength > LIMITS.maxBodyBytes
        ? { kind: 'too-large' }
        : { kind: 'body', body: options.body }
      : await readRequestBody(req, LIMITS.maxBodyBytes)
  if (read.kind === 'aborted') {
    req.socket.destroy()
    return true
  }
  const tooLarge = read.kind === 'too-large'
  const answer = await ctx.sandbox.answer(
    buildSandboxRequest(req, { url, body: tooLarge ? OVERSIZED : read.body }),
    {
      passUnknownRoutes: options.passUnknownRoutes === true && !tooLarge,
      ...(options.basePathHint === undefined ? {} : { basePathHint: options.basePathHint }),
    },
  )
  if (answer === null) return false
  const { response, entry } = answer
  if (tooLarge) {
    // The rest of the body is never read: close once answered, discarding what still arrives.
    response.headers.Connection = 'close'
    req.resume()
  }
  ctx.onAnswered?.(req, entry)
  await writeSandboxResponse({ req, res, response, held: ctx.held })
  return true
}
