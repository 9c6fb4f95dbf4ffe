import type { FaultDelivery } from '../http/types.js'

/** The answer a fault shapes: the status, headers and body the request would otherwise get. */
export interface FaultAnswer {
  status: number
  /** The answer's headers, merged (the operation's, the rate limit's, its own). */
  headers: Record<string, string>
  /** The body text, or null when the answer has none (`HEAD`, 204) or is `bytes`. */
  body: string | null
  /** A binary answer's bytes (decision 0067), when it is not text. */
  bytes?: Uint8Array | undefined
  /** `HEAD`: the head of a GET, never a body. */
  head: boolean
  /** The fault's setting, when it has one (`slow-body`'s bytes a second, a stall's ms). */
  setting: number | undefined
}

/** What a fault made of an answer: how to send it, and what the journal keeps of it. */
export interface ShapedAnswer {
  delivery: FaultDelivery
  /** The status, headers and body the journal keeps (null status: no answer was made). */
  journal: {
    status: number | null
    headers: Record<string, string> | null
    body: string | null
  }
}

/** One fault: a transform of the answer's bytes (STYLE.md, "For faults"). */
export type ShapeFault = (answer: FaultAnswer) => ShapedAnswer

const encoder = new TextEncoder()
const NO_BYTES = new Uint8Array(0)

/** The answer's body as UTF-8 bytes (none for `HEAD` and bodiless answers). */
export const bodyBytes = (answer: FaultAnswer): Uint8Array =>
  answer.head
    ? NO_BYTES
    : answer.bytes !== undefined
      ? answer.bytes
      : answer.body === null
        ? NO_BYTES
        : encoder.encode(answer.body)

/** The answer's headers with `Content-Length` set to `length` bytes. */
export const withLength = (
  headers: Record<string, string>,
  length: number,
): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const name in headers)
    if (name.toLowerCase() !== 'content-length') out[name] = headers[name] as string
  out['Content-Length'] = String(length)
  return out
}

/**
 * No byte of answer, then a clean close: `empty-response`, and what every
 * body fault does with an answer that has no body (contract §19). The
 * journal keeps no answer.
 */
export const noAnswer = (): ShapedAnswer => ({
  delivery: { head: null, body: NO_BYTES, end: 'close' },
  journal: { status: null, headers: null, body: null },
})

/**
 * A body fault: the head with the whole body's `Content-Length`, then `sent`
 * bytes of the body, then `end`. An answer without a body gets `noAnswer`.
 */
export const cutBody = (
  answer: FaultAnswer,
  shape: (bytes: Uint8Array) => Omit<FaultDelivery, 'head'>,
): ShapedAnswer => {
  const bytes = bodyBytes(answer)
  if (bytes.byteLength === 0) return noAnswer()
  return {
    delivery: {
      head: { status: answer.status, headers: withLength(answer.headers, bytes.byteLength) },
      ...shape(bytes),
    },
    journal: { status: answer.status, headers: answer.headers, body: answer.body },
  }
}

/** The first half of the bytes (rounded down). */
export const firstHalf = (bytes: Uint8Array): Uint8Array =>
  bytes.subarray(0, Math.floor(bytes.byteLength / 2))
