import type { IncomingMessage, ServerResponse } from 'node:http'
import type { SandboxResponse } from '../http/types.js'

/** Timers of answers being held (delays, `timeout` faults), so a shutdown can cut them short. */
export interface HeldAnswers {
  /** Longest a delay or a `timeout` fault holds a request (ms). */
  readonly maxHoldMs: number
  hold(ms: number, then: () => void): void
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
  const body = response.body
  const headers: Record<string, string | number> = {}
  if (extra !== undefined) for (const name in extra) headers[name] = extra[name] as string
  const own = response.headers
  for (const name in own) headers[name] = own[name] as string
  if (body === null) {
    res.writeHead(response.status, headers)
    res.end()
    return
  }
  headers['Content-Length'] = Buffer.byteLength(body)
  res.writeHead(response.status, headers)
  res.end(res.req.method === 'HEAD' ? undefined : body)
}

/**
 * Answers a request with the core's response: waits `delayMs` (bounded),
 * then writes it, or fails the connection for a transport fault —
 * `network-error` destroys the socket after the delay, `timeout` holds it for
 * its delay (the bound when none, never longer) and then destroys it. Resolves when the request is done with.
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
}): Promise<void> => {
  const { req, res, response, held, extra } = input
  const fault = response.fault
  const delay = response.delayMs ?? 0
  if (fault === undefined && delay <= 0) {
    writeNow(res, response, extra)
    return Promise.resolve()
  }
  return new Promise((resolve) => {
    const act = (): void => {
      if (fault !== undefined) req.socket.destroy()
      else writeNow(res, response, extra)
      resolve()
    }
    // A `timeout` fault holds for its delay, or until the bound when it gives none.
    const ms =
      fault !== undefined && fault !== 'network-error' && delay <= 0 ? held.maxHoldMs : delay
    if (ms <= 0) act()
    else held.hold(ms, act)
  })
}
