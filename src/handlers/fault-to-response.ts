import { pace } from '../faults/pace.js'
import type { FaultDelivery } from '../http/types.js'

// A Response with one of these statuses cannot have a body.
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([204, 205, 304])

const brokenBody = (delivery: FaultDelivery): TypeError =>
  new TypeError(
    delivery.end === 'stall'
      ? 'The answer stalled after its headers and the connection was destroyed (petstore-sandbox fault).'
      : delivery.end === 'reset'
        ? 'The connection was reset in the middle of the body (petstore-sandbox fault).'
        : 'The connection closed before the whole body (Content-Length) arrived (petstore-sandbox fault).',
  )

/**
 * True in a page (the browser runtime, or a DOM in tests) whose origin is not
 * the request's: there, an answer without CORS headers is a failed fetch
 * (MSW's worker answers skip the browser's CORS check, so this does it).
 */
const crossOriginPage = (url: string): boolean => {
  const page = (globalThis as { location?: { origin?: unknown } }).location?.origin
  return typeof page === 'string' && page !== 'null' && new URL(url).origin !== page
}

/**
 * A fault's shaped answer as a Fetch Response for MSW, as nearly as a mocked
 * Response allows (docs/scenarios.md, "Faults in each runtime"): no head, or
 * an answer without CORS headers (`proxy-error`) to a cross-origin page, is
 * `Response.error()` (the fetch rejects); otherwise the head and a body
 * stream that sends the bytes (paced for `slow-body`, on `setTimeout`, so
 * fake timers drive it), then closes, or errors where the wire would break
 * (a reset, a close before `Content-Length`, a stall's end): reading the body
 * throws. `onGone` is told when the client cancels the body, or aborts its
 * request (`signal`), before the body's end.
 *
 * @example
 * return faultToResponse(response.delivery, { method: request.method, url: request.url, onGone: () => answer.markAborted() })
 */
export const faultToResponse = (
  delivery: FaultDelivery,
  options: {
    method: string
    url: string
    signal?: AbortSignal | undefined
    onGone: () => void
  },
): Response => {
  const head = delivery.head
  if (head === null || (delivery.withoutCors === true && crossOriginPage(options.url)))
    return Response.error()
  const init = { status: head.status, headers: head.headers }
  if (options.method === 'HEAD' || NULL_BODY_STATUSES.has(head.status))
    return new Response(null, init)
  const { body, bytesPerSecond: rate } = delivery
  let timer: ReturnType<typeof setTimeout> | undefined
  let finished = false
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      // The client gave up (its fetch's signal, which MSW passes on): stop, and say so.
      const signal = options.signal
      const giveUp = (): void => {
        if (finished) return
        finished = true
        clearTimeout(timer)
        options.onGone()
        controller.error(signal?.reason ?? new DOMException('The client gave up.', 'AbortError'))
      }
      signal?.addEventListener('abort', giveUp, { once: true })
      const end = (): void => {
        // A stall still listens: the client may give up while nothing comes.
        if (delivery.end !== 'stall') signal?.removeEventListener('abort', giveUp)
        if (delivery.end === 'complete') {
          finished = true
          controller.close()
        } else if (delivery.end === 'stall') {
          timer = setTimeout(() => {
            finished = true
            signal?.removeEventListener('abort', giveUp)
            controller.error(brokenBody(delivery))
          }, delivery.holdMs ?? 0)
        } else {
          finished = true
          controller.error(brokenBody(delivery))
        }
      }
      if (rate === undefined) {
        if (body.byteLength > 0) controller.enqueue(body.slice())
        end()
        return
      }
      // The server's schedule (src/faults/pace.ts): one byte a second at `__bandwidth=1`.
      const { tickMs: tick, due: dueAfter } = pace(rate)
      let sent = 0
      let ticks = 0
      const next = (): void => {
        if (finished) return
        ticks++
        const due = dueAfter(ticks, sent, body.byteLength)
        controller.enqueue(body.slice(sent, due))
        sent = due
        if (sent >= body.byteLength) end()
        else timer = setTimeout(next, tick)
      }
      timer = setTimeout(next, tick)
    },
    cancel() {
      clearTimeout(timer)
      if (!finished) options.onGone()
    },
  })
  return new Response(stream, init)
}
