import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Awaitable } from '../http/awaitable.js'
import type { Forwarder } from '../http/forwarder.js'
import type { JournalRecord } from '../journal/journal.js'
import type { Answer } from '../pipeline/handle-request.js'
import type { SandboxCore } from '../sandbox/create-sandbox-core.js'
import { buildSandboxRequest, requestOrigin, requestUrl } from './build-sandbox-request.js'
import { type BodyReadResult, readRequestBody, readRequestBodyNow } from './read-request-body.js'
import { type HeldAnswers, writeSandboxResponse } from './write-sandbox-response.js'

/** What answering an API request needs from its server (or middleware). */
export interface ApiAnswerContext {
  sandbox: SandboxCore<string>
  held: HeldAnswers
  /** Host used when a request's Host header is missing or malformed. */
  fallbackHost: string
  /** Told about each answered request's journal record (the request log, the dashboard's chart). */
  onAnswered?: ((req: IncomingMessage, record: JournalRecord) => void) | undefined
  /** How upstream mode reaches the upstream (default: the core's, over `fetch`). */
  forward?: Forwarder | undefined
}

export interface AnswerOptions {
  /** The request target to use instead of `req.url` (express's `originalUrl` under a mount path). */
  path?: string | undefined
  /** The body, when something before us has read the stream already (null: it had none). */
  body?: Uint8Array | null | undefined
  /** Answer false, before authentication, for a path no API route matches (the user's handlers come next). */
  passUnknownRoutes?: boolean | undefined
  /** Appended to the 404 for the bare base path (the server's dashboard and OpenAPI document). */
  basePathHint?: string | undefined
  /** Headers written with the answer (the CORS headers, when they were not set on `res`). */
  headers?: Readonly<Record<string, string>> | undefined
}

// The core reads only the length of an oversized body, so one shared buffer
// of cap + 1 bytes (per cap: the `maxBodyBytes` setting) stands for every
// body that was refused without reading it.
const oversizedBodies = new Map<number, Uint8Array>()

/**
 * The stand-in for a body over `maxBodyBytes`, made once per limit.
 *
 * @example
 * answerApiRequest(ctx, req, res, { body: oversized(ctx.sandbox.fidelity.maxBodyBytes) })
 */
export const oversized = (maxBodyBytes: number): Uint8Array => {
  let body = oversizedBodies.get(maxBodyBytes)
  if (body === undefined) {
    body = new Uint8Array(maxBodyBytes + 1)
    oversizedBodies.set(maxBodyBytes, body)
  }
  return body
}

/**
 * Answers a request below the API's base path through the core, without
 * Fetch objects. False when the core does not own the request (the caller
 * passes it on). An oversized body is not buffered: the core still decides
 * the answer (401 and 429 come first), and the connection closes.
 * Synchronous when nothing waits (a body already read, the in-memory state, no
 * delay): then the answer is written before this returns (decision 0039).
 *
 * @example
 * if (!(await answerApiRequest(ctx, req, res))) next()
 */
export const answerApiRequest = (
  ctx: ApiAnswerContext,
  req: IncomingMessage,
  res: ServerResponse,
  options: AnswerOptions = {},
): Awaitable<boolean> => {
  const url = requestUrl(req, requestOrigin(req, ctx.fallbackHost), options.path)
  if (url === undefined) return false
  const { maxBodyBytes } = ctx.sandbox.fidelity
  if (options.body !== undefined)
    return answerWithBody(
      ctx,
      { req, res, url, options },
      options.body !== null && options.body.byteLength > maxBodyBytes
        ? { kind: 'too-large' }
        : { kind: 'body', body: options.body },
    )
  const read = readRequestBodyNow(req, maxBodyBytes)
  if (read !== undefined) return answerWithBody(ctx, { req, res, url, options }, read)
  return readRequestBody(req, maxBodyBytes).then((later) =>
    answerWithBody(ctx, { req, res, url, options }, later),
  )
}

interface ApiExchange {
  req: IncomingMessage
  res: ServerResponse
  url: string
  options: AnswerOptions
}

const answerWithBody = (
  ctx: ApiAnswerContext,
  exchange: ApiExchange,
  read: BodyReadResult,
): Awaitable<boolean> => {
  const { req, url, options } = exchange
  if (read.kind === 'aborted') {
    req.socket.destroy()
    return true
  }
  const { maxBodyBytes } = ctx.sandbox.fidelity
  const tooLarge = read.kind === 'too-large'
  const answer = ctx.sandbox.answerRequest(
    buildSandboxRequest(req, { url, body: tooLarge ? oversized(maxBodyBytes) : read.body }),
    {
      passUnknownRoutes: options.passUnknownRoutes === true && !tooLarge,
      basePathHint: options.basePathHint,
      forward: ctx.forward,
    },
  )
  return answer instanceof Promise
    ? answer.then((later) => writeAnswer(ctx, exchange, tooLarge, later))
    : writeAnswer(ctx, exchange, tooLarge, answer)
}

const writeAnswer = (
  ctx: ApiAnswerContext,
  { req, res, options }: ApiExchange,
  tooLarge: boolean,
  answer: Answer | null,
): Awaitable<boolean> => {
  if (answer === null) return false
  const { response, record } = answer
  if (tooLarge) {
    // The rest of the body is never read: close once answered, discarding what still arrives.
    response.headers.Connection = 'close'
    req.resume()
  }
  ctx.onAnswered?.(req, record)
  const written = writeSandboxResponse({
    req,
    res,
    response,
    held: ctx.held,
    extra: options.headers,
    // Only a held answer listens for the client going away (decision 0032).
    answer,
  })
  return written === undefined ? true : written.then(() => true)
}
