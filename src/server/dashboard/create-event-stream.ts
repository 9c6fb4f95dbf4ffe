import type { ServerResponse } from 'node:http'
import { ApiError } from '../../http/api-error.js'
import { newRequestId } from '../../journal/request-id.js'
import { SERVER_LIMITS } from '../server-limits.js'
import { writeNow } from '../write-sandbox-response.js'
import { DASHBOARD_HEADERS } from './dashboard-headers.js'

/** A client that reads more slowly than events come is cut off past this many buffered bytes. */
const MAX_BUFFERED_BYTES = 1_048_576

export interface EventStream {
  /**
   * Starts a Server-Sent Events answer on `res`; the client stays until it goes
   * away. `session` is the session the page watches. Past the server's cap on
   * streams it answers 503 `stream_limit_reached` with Retry-After instead.
   */
  open(
    res: ServerResponse,
    first: readonly { event: string; data: unknown }[],
    session: string,
  ): void
  /** Sends one event to every open client (or to those watching `only`). */
  publish(event: string, data: unknown, only?: string): void
  /** The sessions the open pages watch, each once. */
  sessions(): string[]
  readonly size: number
  /** Ends every stream (server shutdown). */
  close(): void
}

const frame = (event: string, data: unknown): string =>
  `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`

/**
 * The dashboard's event stream (text/event-stream). The page reads it with
 * fetch, so it can send the admin token as a header (docs/decisions/
 * 0011-dashboard-event-stream.md). JSON in `data` is one line: no newline can
 * break a frame.
 *
 * @example
 * const stream = createEventStream({ onChange: (n) => (n > 0 ? startTicking() : stopTicking()) })
 * stream.open(res, [{ event: 'hello', data: snapshot }])
 */
export const createEventStream = (options: {
  onChange(size: number): void
  /** Streams open at once (default SERVER_LIMITS.maxDashboardStreams). */
  maxStreams?: number
}): EventStream => {
  const clients = new Map<ServerResponse, string>()
  const maxStreams = options.maxStreams ?? SERVER_LIMITS.maxDashboardStreams
  const drop = (res: ServerResponse): void => {
    if (clients.delete(res)) options.onChange(clients.size)
    if (!res.writableEnded) res.end()
  }
  const write = (res: ServerResponse, text: string): void => {
    if (res.writableLength > MAX_BUFFERED_BYTES) {
      // A reader that stopped reading: ending would wait behind its full buffer and keep
      // the socket (issue 24). Destroy it; its memory goes with it.
      drop(res)
      res.destroy()
    } else res.write(text)
  }
  return {
    open(res, first, session) {
      if (clients.size >= maxStreams) {
        const refusal = new ApiError(
          'stream_limit_reached',
          `${maxStreams} dashboard streams are open, the server's limit: close a dashboard page, or retry after the time given in the Retry-After header.`,
          { headers: { 'Retry-After': '5' } },
        ).toResponse()
        writeNow(res, {
          ...refusal,
          headers: { ...DASHBOARD_HEADERS, 'Cache-Control': 'no-store', ...refusal.headers },
        })
        return
      }
      res.writeHead(200, {
        ...DASHBOARD_HEADERS,
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        'X-Accel-Buffering': 'no',
        'Request-Id': newRequestId(),
      })
      if (res.req.method === 'HEAD') {
        res.end()
        return
      }
      // The retry hint, then what the page needs to draw at once.
      res.write(`retry: 2000\n\n${first.map((e) => frame(e.event, e.data)).join('')}`)
      clients.set(res, session)
      res.once('close', () => drop(res))
      options.onChange(clients.size)
    },
    publish(event, data, only) {
      if (clients.size === 0) return
      const text = frame(event, data)
      for (const [res, session] of [...clients])
        if (only === undefined || only === session) write(res, text)
    },
    sessions: () => [...new Set(clients.values())],
    get size() {
      return clients.size
    },
    close() {
      for (const res of [...clients.keys()]) drop(res)
    },
  }
}
