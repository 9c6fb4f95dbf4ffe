import type { IncomingMessage, ServerResponse } from 'node:http'
import { mergeExposeHeaders } from '../http/merge-expose-headers.js'
import type { ExactAnswer, SandboxResponse } from '../http/types.js'
import { newRequestId } from '../journal/request-id.js'
import { deliverFault } from './deliver-fault.js'

/** Timers of answers being held (delays, `timeout` faults), so a shutdown can cut them short. */
export interface HeldAnswers {
  /** Longest a delay or a `timeout` fault holds a request (ms). */
  readonly maxHoldMs: number
  /** Runs `then` after `ms` (at most `maxHoldMs`); the function returned cancels it. */
  hold(ms: number, then: () => void): () => void
  /** Runs every held continuation now. */
  releaseAll(): void
}

/**
 * @example
 * const held = createHeldAnswers(30_000)
 */
export const createHeldAnswers = (maxHoldMs: number): HeldAnswers => {
  const timers = new Map<NodeJS.Timeout, () => void>()
  return {
    maxHoldMs,
    hold(ms, then) {
      const timer = setTimeout(
        () => {
          timers.delete(timer)
          then()
        },
        Math.min(Math.max(ms, 0), maxHoldMs),
      )
      timers.set(timer, then)
      return () => {
        clearTimeout(timer)
        timers.delete(timer)
      }
    },
    releaseAll() {
      for (const [timer, then] of timers) {
        clearTimeout(timer)
        timers.delete(timer)
        then()
      }
    },
  }
}

const EXPOSE = 'access-control-expose-headers'

// Statuses whose answers have no body, whatever their headers say.
const NO_BODY: ReadonlySet<number> = new Set([204, 304])

/**
 * An upstream's answer as received (contract §17): its header names and
 * repeated headers as sent, its bytes. The sandbox's CORS headers (`extra`)
 * replace the upstream's own: the browser talks to the sandbox.
 */
const writeExact = (
  res: ServerResponse,
  status: number,
  exact: ExactAnswer,
  extra: Readonly<Record<string, string>> | undefined,
  own: Readonly<Record<string, string>>,
): void => {
  const head = res.req.method === 'HEAD'
  const withBody = !head && !NO_BODY.has(status)
  // A flat name/value list: repeated headers stay separate lines, any name stays a header.
  const headers: string[] = []
  const ours = new Set<string>()
  // Where the sandbox's Access-Control-Expose-Headers is in `headers`, when it wrote one there.
  let exposeAt = -1
  if (extra !== undefined)
    for (const name in extra) {
      if (name.toLowerCase() === EXPOSE) exposeAt = headers.length + 1
      headers.push(name, extra[name] as string)
      ours.add(name.toLowerCase())
    }
  // The sandbox's Request-Id (contract §22; the pipeline's, in `own`) replaces an upstream's own.
  if (!res.hasHeader('request-id')) headers.push('Request-Id', own['Request-Id'] ?? newRequestId())
  const exposed: string[] = []
  for (const [name, value] of exact.headers) {
    const key = name.toLowerCase()
    if ((key === 'content-length' && withBody) || key === 'request-id') continue
    // CORS is between the browser and the sandbox: the sandbox's headers win, except that
    // the names the upstream exposes are exposed too (browser code reads its ETag).
    if (key === EXPOSE && (exposeAt !== -1 || res.hasHeader(key))) exposed.push(value)
    else if (key.startsWith('access-control-') && (ours.has(key) || res.hasHeader(key))) continue
    else headers.push(name, value)
  }
  if (exposed.length > 0) {
    if (exposeAt !== -1)
      headers[exposeAt] = mergeExposeHeaders(headers[exposeAt] as string, exposed)
    else res.setHeader(EXPOSE, mergeExposeHeaders(String(res.getHeader(EXPOSE)), exposed))
  }
  if (withBody) headers.push('Content-Length', String(exact.body.byteLength))
  res.writeHead(status, headers)
  res.end(withBody ? exact.body : undefined)
}

/**
 * Writes the status, headers and body; `Content-Length` is set so keep-alive
 * needs no chunking. `extra` headers (the CORS headers of the API's hot path)
 * go first. Every header goes through one `writeHead` call: node takes its
 * fast path when nothing was set with `setHeader` before (decision 0021).
 */
export const writeNow = (
  res: ServerResponse,
  response: SandboxResponse,
  extra?: Readonly<Record<string, string>>,
): void => {
  if (res.headersSent || res.destroyed) return
  if (response.exact !== undefined) {
    writeExact(res, response.status, response.exact, extra, response.headers)
    return
  }
  const body = response.bytes ?? response.body
  const own = response.headers
  // A flat name/value list, as an object would be written (an `own` header replaces an
  // `extra` one of the same name, `Content-Length` is ours): no object built per answer.
  const headers: (string | number)[] = []
  if (extra !== undefined)
    for (const name in extra)
      if (!Object.hasOwn(own, name) && (body === null || name !== 'Content-Length'))
        headers.push(name, extra[name] as string)
  for (const name in own)
    if (body === null || name !== 'Content-Length') headers.push(name, own[name] as string)
  // Every answer has a Request-Id (contract §22): the API pipeline's answers bring theirs.
  if (own['Request-Id'] === undefined && !res.hasHeader('request-id'))
    headers.push('Request-Id', newRequestId())
  if (body === null) {
    res.writeHead(response.status, headers)
    res.end()
    return
  }
  headers.push(
    'Content-Length',
    typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength,
  )
  res.writeHead(response.status, headers)
  res.end(res.req.method === 'HEAD' ? undefined : body)
}

/**
 * Answers a request with the core's response: waits `delayMs` (bounded),
 * then writes it, or fails the connection for a transport fault —
 * `network-error` destroys the socket after the delay, `timeout` holds it for
 * its delay (the bound when none, never longer) and then destroys it — or
 * sends a fault's shaped bytes (`deliverFault`, contract §19). Resolves when the request is done with;
 * undefined when the answer was written at once.
 * When the client closes the connection while its answer is held, the
 * `answer` is marked aborted (its journal entry says so, decision 0032) and
 * the hold ends at once; an answer written at once needs no listener.
 *
 * @example
 * await writeSandboxResponse({ req, res, response, held })
 */
export const writeSandboxResponse = (input: {
  req: IncomingMessage
  res: ServerResponse
  response: SandboxResponse
  held: HeldAnswers
  /** Headers to write first (the CORS headers of the hot path). */
  extra?: Readonly<Record<string, string>> | undefined
  /** The core's answer, told when the client goes away while it is held. */
  answer?: { markAborted(): Promise<void> } | undefined
}): Promise<void> | undefined => {
  const { req, res, response, held, extra, answer } = input
  const fault = response.fault
  const delay = response.delayMs ?? 0
  if (fault === undefined && delay <= 0) {
    // Written now: nothing to wait for (undefined, not a resolved promise: no microtask).
    writeNow(res, response, extra)
    return undefined
  }
  return new Promise((resolve) => {
    let cancel: (() => void) | undefined
    const gone = (): void => {
      // The client closed the connection before the answer (or the fault) reached it.
      cancel?.()
      answer?.markAborted().catch(() => {})
      resolve()
    }
    const act = (): void => {
      res.off('close', gone)
      if (response.delivery !== undefined) {
        // A fault that shapes the answer's bytes (contract §19): the client may still go away.
        deliverFault({
          res,
          delivery: response.delivery,
          held,
          extra,
          onGone: () => answer?.markAborted().catch(() => {}),
        }).then(resolve, resolve)
        return
      }
      if (fault !== undefined) req.socket.destroy()
      else writeNow(res, response, extra)
      resolve()
    }
    // A `timeout` fault holds for its delay, or until the bound when it gives none.
    const ms = fault === 'timeout' && delay <= 0 ? held.maxHoldMs : delay
    if (ms <= 0) act()
    else {
      res.once('close', gone)
      cancel = held.hold(ms, act)
    }
  })
}
