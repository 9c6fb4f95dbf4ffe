import type { FaultDelivery } from '../http/types.js'

/** The part of Playwright's `Route` a fault needs (structural: playwright.ts's RouteLike fits). */
interface FaultRoute {
  fulfill(response: {
    status: number
    headers: Record<string, string>
    body: string | Buffer
  }): Promise<void>
  abort(errorCode?: string): Promise<void>
}

/**
 * Delivers a fault's shaped answer through Playwright's `route`, as nearly as
 * it allows (docs/scenarios.md, "Faults in each runtime"): `route.fulfill`
 * sends a whole body at once and cannot stream, so
 * - no head (`empty-response`, `commit-then-drop`): the request fails
 *   (`connectionclosed`, or `connectionreset` for `__drop=reset`), as on the wire;
 * - `proxy-error` to a cross-origin page: the request fails (`failed`), as
 *   Chromium fails a gateway's 502 without CORS headers (Playwright would add
 *   them to a fulfilled answer); a same-origin page gets the 502;
 * - a cut body (`reset-mid-body`, `truncated-body`): the head with the whole
 *   body's `Content-Length` and the first half, then the body ends: the page
 *   reads half a body without an error (its `json()` fails);
 * - `stall-after-headers`: no head can be sent alone, so the request is held
 *   for the stall and then fails (`timedout`);
 * - `slow-body`: held for the time the body takes at its bandwidth, then
 *   answered whole.
 * `hold` resolves true when the page gave up meanwhile (the journal then says `aborted`).
 *
 * @example
 * await fulfilFault({ route, delivery, cors, hold, onGone: () => answer.markAborted() })
 */
export const fulfilFault = async (input: {
  route: FaultRoute
  delivery: FaultDelivery
  /** The CORS headers the standalone server would add. */
  cors: Record<string, string>
  hold: (ms: number) => Promise<boolean>
  onGone: () => Promise<void>
}): Promise<void> => {
  const { route, delivery, cors, hold, onGone } = input
  const head = delivery.head
  if (head === null) {
    await route.abort(delivery.end === 'reset' ? 'connectionreset' : 'connectionclosed')
    return
  }
  const gaveUp = async (ms: number): Promise<boolean> => {
    if (ms <= 0 || !(await hold(ms))) return false
    await onGone()
    await route.abort('aborted').catch(() => {})
    return true
  }
  if (delivery.end === 'stall') {
    if (!(await gaveUp(delivery.holdMs ?? 0))) await route.abort('timedout')
    return
  }
  const rate = delivery.bytesPerSecond
  if (rate !== undefined && (await gaveUp(Math.ceil((delivery.body.byteLength / rate) * 1000))))
    return
  if (delivery.withoutCors && Object.keys(cors).length > 0) {
    // A gateway's answer without CORS headers to a cross-origin page: Chromium would refuse it,
    // but Playwright adds the headers to what `fulfill` sends, so the request fails here.
    await route.abort('failed')
    return
  }
  const body = delivery.body
  await route.fulfill({
    status: head.status,
    headers: { ...head.headers, ...cors },
    body: Buffer.from(body.buffer, body.byteOffset, body.byteLength),
  })
}
