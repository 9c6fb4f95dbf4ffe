import type { TransportFault } from '../http/types.js'

/** A request's or response's headers and body as the journal keeps them (secrets redacted). */
export interface JournalMessage {
  /** Lower-case header names; credentials redacted (contract §14). */
  headers: Record<string, string>
  /** The body as text (UTF-8), capped at `JOURNAL_BODY_LIMIT` characters; null for none. */
  body: string | null
  /** True when the body was longer than the cap and was cut. */
  bodyTruncated: boolean
}

/** One request the sandbox answered (or failed on purpose), as the journal keeps it. */
export interface JournalEntry {
  /** Ascending number of the entry within its session. */
  seq: number
  /** ISO time by the sandbox clock. */
  time: string
  /** The session that answered (`default` unless one was chosen). */
  session: string
  method: string
  /** The absolute request URL, with secret-looking query parameters redacted. */
  url: string
  /** The status the client got, or null when the connection was failed instead (`fault`). */
  status: number | null
  /** How the connection was failed, when it was: the client saw no response. */
  fault: TransportFault | undefined
  /** The scenario that answered. */
  scenario: string
  /** The plan of the key, when the key was valid. */
  plan: string | undefined
  /** Time the sandbox spent on the request, in ms (without a scenario's delay). */
  durationMs: number
  /** A scenario's delay before the answer (or the failure), in ms. */
  delayMs: number
  request: JournalMessage
  /** What the client received; null when the connection was failed. */
  response: JournalMessage | null
}

export interface RequestJournal {
  /** Records an entry and returns it with its `seq`. */
  record(entry: Omit<JournalEntry, 'seq'>): JournalEntry
  list(): JournalEntry[]
  clear(): void
  readonly capacity: number
}

/** Longest body the journal keeps, in characters. */
export const JOURNAL_BODY_LIMIT = 8_192

const decoder = new TextDecoder('utf-8')

/**
 * A body as the journal keeps it: text, cut at the cap.
 *
 * @example
 * journalBody('{"name":"Rex"}') // { body: '{"name":"Rex"}', bodyTruncated: false }
 */
export const journalBody = (
  body: string | Uint8Array | null,
): Pick<JournalMessage, 'body' | 'bodyTruncated'> => {
  if (body === null) return { body: null, bodyTruncated: false }
  const text =
    typeof body === 'string'
      ? body
      : decoder.decode(
          body.byteLength > JOURNAL_BODY_LIMIT * 4
            ? body.subarray(0, JOURNAL_BODY_LIMIT * 4)
            : body,
        )
  const truncated =
    text.length > JOURNAL_BODY_LIMIT ||
    (typeof body !== 'string' && body.byteLength > JOURNAL_BODY_LIMIT * 4)
  return { body: truncated ? text.slice(0, JOURNAL_BODY_LIMIT) : text, bodyTruncated: truncated }
}

/**
 * A ring buffer of the last `capacity` requests.
 *
 * @example
 * const journal = createJournal(100)
 */
export const createJournal = (capacity = 500): RequestJournal => {
  if (!Number.isInteger(capacity) || capacity < 0) {
    throw new TypeError(
      `Failed to create the request journal: capacity ${capacity} must be a whole number >= 0.`,
    )
  }
  // A ring grown on demand (an idle session holds none of it); recording is O(1).
  let ring: (JournalEntry | undefined)[] = []
  let seq = 0
  let cleared = 0
  return {
    capacity,
    record(entry) {
      seq++
      const stored = { seq, ...entry }
      if (capacity > 0) ring[seq % capacity] = stored
      return stored
    },
    list() {
      const first = Math.max(cleared, seq - capacity) + 1
      const out: JournalEntry[] = []
      for (let n = first; n <= seq; n++) {
        const entry = ring[n % capacity]
        if (entry !== undefined) out.push(entry)
      }
      return out
    },
    clear() {
      ring = []
      cleared = seq
    },
  }
}
