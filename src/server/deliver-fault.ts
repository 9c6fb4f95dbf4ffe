import type { ServerResponse } from 'node:http'
import { pace } from '../faults/pace.js'
import type { FaultDelivery } from '../http/types.js'

/** The held-answer timers a delivery needs (write-sandbox-response's HeldAnswers fits). */
interface Holds {
  readonly maxHoldMs: number
  hold(ms: number, then: () => void): () => void
}

/**
 * The head's headers after the `extra` ones (the CORS headers of the hot
 * path), a head header replacing an `extra` of the same name.
 */
const headLines = (
  head: Record<string, string>,
  extra: Readonly<Record<string, string>> | undefined,
): string[] => {
  const lines: string[] = []
  if (extra !== undefined)
    for (const name in extra)
      if (!Object.hasOwn(head, name)) lines.push(name, extra[name] as string)
  for (const name in head) lines.push(name, head[name] as string)
  return lines
}

/**
 * Sends a faulty answer exactly on the wire (contract §19): the head as
 * given, then the body's bytes (paced for `slow-body`), then the end the
 * fault names: the answer's own end, a clean close (FIN) before the body is
 * whole, a reset (RST) after a pause of `holdMs`, or silence for `holdMs` and
 * a destroyed connection. No head: the connection closes (or is reset) with
 * no byte of answer. Resolves when done;
 * `onGone` is told when the client goes away before the answer is whole.
 *
 * @example
 * await deliverFault({ res, delivery, held, onGone: () => answer.markAborted() })
 */
export const deliverFault = (input: {
  res: ServerResponse
  delivery: FaultDelivery
  held: Holds
  extra?: Readonly<Record<string, string>> | undefined
  onGone: () => void
}): Promise<void> => {
  const { res, delivery, held, extra, onGone } = input
  const socket = res.socket
  if (socket === null || res.headersSent || res.destroyed) return Promise.resolve()
  const head = delivery.head
  if (head === null) {
    // No byte of answer: a reset (RST; no data waits, so no client can mistake it for an
    // end), or a clean close (FIN) once the request is read.
    if (delivery.end === 'reset') socket.resetAndDestroy()
    else socket.destroySoon()
    return Promise.resolve()
  }
  return new Promise((resolve) => {
    let cancel: (() => void) | undefined
    const gone = (): void => {
      cancel?.()
      onGone()
      resolve()
    }
    res.once('close', gone)
    const done = (): void => {
      res.off('close', gone)
      resolve()
    }
    const body = delivery.body
    // A gateway's own answer (`proxy-error`) carries none of the sandbox's CORS headers: not the
    // hot path's (`extra`), nor those a configured `cors` option set on the response already.
    if (delivery.withoutCors)
      for (const name of res.getHeaderNames())
        if (name.startsWith('access-control-')) res.removeHeader(name)
    res.writeHead(head.status, headLines(head.headers, delivery.withoutCors ? undefined : extra))
    // Called once the body's bytes are handed to the kernel.
    const end = (): void => {
      switch (delivery.end) {
        case 'complete':
          res.end()
          done()
          return
        case 'close':
          // The head's Content-Length promised more: a FIN now cuts the body short.
          done()
          socket.end()
          return
        case 'reset':
          // After the pause (`holdMs`): a reset that reaches the client before it read the
          // bytes is seen by Node's sockets (libuv) as a clean end, and a reset sent with
          // bytes still queued here discards them (decision 0055).
          cancel = held.hold(delivery.holdMs ?? 0, () => {
            done()
            socket.resetAndDestroy()
          })
          return
        case 'stall':
          res.flushHeaders()
          cancel = held.hold(delivery.holdMs ?? held.maxHoldMs, () => {
            done()
            socket.destroy()
          })
          return
      }
    }
    const rate = delivery.bytesPerSecond
    if (rate === undefined) {
      if (body.byteLength > 0) res.write(body, () => end())
      else end()
      return
    }
    // Paced (src/faults/pace.ts): chunk n has sent what the rate allows by then, one byte at least.
    const { tickMs: tick, due: dueAfter } = pace(rate)
    let sent = 0
    let ticks = 0
    const next = (): void => {
      ticks++
      const due = dueAfter(ticks, sent, body.byteLength)
      const chunk = body.subarray(sent, due)
      sent = due
      if (sent >= body.byteLength) res.write(chunk, () => end())
      else {
        res.write(chunk)
        cancel = held.hold(tick, next)
      }
    }
    res.flushHeaders()
    cancel = held.hold(tick, next)
  })
}
