import type { OperationId } from '../contract/operation-ids.js'
import { shapeFault } from '../faults/shape-fault.js'
import type { Awaitable } from '../http/awaitable.js'
import type { UrlFields } from '../http/request-url.js'
import type { SandboxRequest, SandboxResponse } from '../http/types.js'
import type { AnswerSource, JournalPhase, JournalRecord, Violation } from '../journal/journal.js'
import { newRequestId } from '../journal/request-id.js'
import { toJournalEntry } from '../journal/to-journal-entry.js'
import type { SessionState } from '../state/sandbox-state.js'
import type { PipelineContext } from './pipeline-context.js'

export interface FinishInput {
  request: SandboxRequest
  url: UrlFields
  response: SandboxResponse
  session: SessionState
  now: number
  operation: OperationId | null
  /** Headers of the operation (getPet's deprecation headers), on every answer of it; null for none. */
  operationHeaders: Record<string, string> | null
  /** `X-RateLimit-*` for the caller's bucket. */
  rateLimitHeaders: Record<string, string> | null
  /** The bearer token sent, and whether it was a valid key of the session. */
  token: string | undefined
  keyValid: boolean
  scenario: string
  /** The timeline phase that chose the scenario, when a timeline was in play. */
  phase?: JournalPhase | undefined
  plan: string | undefined
  /** `performance.now()` when the request arrived. */
  startedAt: number
  /** Where the answer came from (default `sandbox`). */
  source?: AnswerSource | undefined
  /** Rules of the contract the answer broke (upstream answers). */
  violations?: Violation[] | undefined
}

const NO_VIOLATIONS: Violation[] = []
Object.freeze(NO_VIOLATIONS)

const encoder = new TextEncoder()

/** Bytes as base64 text (a binary answer's journal body). */
const toBase64 = (bytes: Uint8Array): string => {
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}

/**
 * The answer's headers in one stated order (later wins): the operation's,
 * then the rate limit's, then the response's own (so a forced 429 can say
 * `X-RateLimit-Remaining: 0`), then the sandbox's `Request-Id` (contract §22:
 * every answer's own, whatever a scenario or an upstream said).
 */
const mergeHeaders = (
  operation: Record<string, string> | null,
  rateLimit: Record<string, string> | null,
  own: Record<string, string>,
  requestId: string,
): Record<string, string> => {
  // Plain loops: object spread of header records was a quarter of a request's time (decision 0021).
  const out: Record<string, string> = {}
  if (operation !== null) for (const name in operation) out[name] = operation[name] as string
  if (rateLimit !== null) for (const name in rateLimit) out[name] = rateLimit[name] as string
  for (const name in own) out[name] = own[name] as string
  // An answer's own id (a recorded or scenario answer) gives way, as written or lower-cased.
  if (out['request-id'] !== undefined) delete out['request-id']
  out['Request-Id'] = requestId
  return out
}

/**
 * Stage 8: the answer's headers; `HEAD` loses the body; then the journal
 * record (references, not copies: it is redacted when read, decision 0020)
 * and, only when someone listens, the `request` event.
 *
 * @example
 * const { response, record } = await finish(ctx, input)
 */
export const finish = (ctx: PipelineContext, input: FinishInput): Awaitable<Finished> => {
  const { request, session } = input
  const own = input.response
  const requestId = newRequestId()
  const response: SandboxResponse = {
    status: own.status,
    headers: mergeHeaders(input.operationHeaders, input.rateLimitHeaders, own.headers, requestId),
    body: own.body,
    delayMs: own.delayMs,
    fault: own.fault,
    exact: own.exact,
  }
  // A binary answer (decision 0067): its bytes, sent by the runtime, kept as base64 by the journal.
  const bytes = own.bytes
  if (bytes !== undefined) response.bytes = bytes
  if (request.method === 'HEAD' && own.exact === undefined) {
    // The GET's headers, its length included, without the body (contract §15).
    if (response.body !== null) {
      response.headers['Content-Length'] = String(encoder.encode(response.body).byteLength)
      response.body = null
    } else if (bytes !== undefined) {
      response.headers['Content-Length'] = String(bytes.byteLength)
      response.bytes = undefined
    }
  }
  // What the journal keeps: the answer, or what a fault made of it (src/faults).
  let status: number | null = response.status
  let headers: Record<string, string> | null = response.headers
  let body = response.bytes === undefined ? response.body : toBase64(response.bytes)
  const fault = response.fault
  if (fault !== undefined) {
    const shaped = shapeFault(fault, {
      status,
      headers,
      body: response.body,
      bytes: response.bytes,
      head: request.method === 'HEAD',
      setting: own.faultSetting,
    })
    if (shaped === undefined) {
      // `network-error`, `timeout`: the runtime fails the connection; no answer was made.
      status = null
      headers = null
      body = null
    } else {
      response.delivery = shaped.delivery
      ;({ status, headers } = shaped.journal)
      // A binary answer's journal body stays the bytes made (base64); a text one is what was sent.
      if (response.bytes === undefined || status === null) body = shaped.journal.body
    }
  }
  const record = session.record({
    requestId,
    at: input.now,
    session: session.id,
    instance: ctx.instance,
    method: request.method,
    url: input.url.href,
    operation: input.operation,
    token: input.token,
    keyValid: input.keyValid,
    clientAddress: request.clientAddress,
    status,
    fault,
    scenario: input.scenario,
    phase: input.phase,
    plan: input.plan,
    source: input.source ?? 'sandbox',
    violations: input.violations ?? NO_VIOLATIONS,
    durationMs: Math.round((performance.now() - input.startedAt) * 1000) / 1000,
    delayMs: response.delayMs ?? 0,
    requestHeaders: request.headers,
    requestBody: request.body,
    responseHeaders: headers,
    responseBody: body,
    ...(response.bytes !== undefined && body !== null ? { responseBodyEncoding: 'base64' } : {}),
  })
  // A shared store numbers it asynchronously; memory at once (no microtask, decisions 0021, 0039).
  if (record instanceof Promise) return record.then((made) => told(ctx, response, made))
  return told(ctx, response, record)
}

interface Finished {
  response: SandboxResponse
  record: JournalRecord
}

/** The `request` event, only when someone listens (then the answer waits for the listeners). */
const told = (
  ctx: PipelineContext,
  response: SandboxResponse,
  record: JournalRecord,
): Awaitable<Finished> => {
  if (!ctx.state.events.has('request')) return { response, record }
  return ctx.state.events
    .emit('request', toJournalEntry(record))
    .catch(ctx.onError)
    .then(() => ({ response, record }))
}
