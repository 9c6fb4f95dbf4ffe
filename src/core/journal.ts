/** One request the sandbox answered, as the journal keeps it. */
export interface JournalEntry {
  /** Ascending number of the entry. */
  seq: number
  /** ISO time by the sandbox clock. */
  time: string
  method: string
  /** Path and query of the request. */
  url: string
  status: number
  /** The scenario that answered. */
  scenario: string
  /** The plan of the key, when the key was valid. */
  plan: string | undefined
  /** Request headers, with `Authorization` redacted to its scheme and a key hint. */
  headers: Record<string, string>
}

export interface RequestJournal {
  record(entry: Omit<JournalEntry, 'seq'>): void
  list(): JournalEntry[]
  clear(): void
  readonly capacity: number
}

/**
 * Keeps `Bearer sandbox-free` as `Bearer sand…(redacted)`: enough to tell keys
 * apart, not to reuse one. At most half of a short token is kept, so a key of
 * four characters or fewer never appears whole.
 */
export const redactAuthorization = (value: string): string => {
  const space = value.indexOf(' ')
  if (space === -1) return '(redacted)'
  const scheme = value.slice(0, space)
  const token = value.slice(space + 1).trim()
  return `${scheme} ${token.slice(0, Math.min(4, Math.floor(token.length / 2)))}…(redacted)`
}

/** A ring buffer of the last `capacity` requests. */
export const createJournal = (capacity = 500): RequestJournal => {
  if (!Number.isInteger(capacity) || capacity < 0) {
    throw new TypeError(
      `Failed to create the request journal: capacity ${capacity} must be a whole number >= 0.`,
    )
  }
  // A fixed ring: recording is O(1) however full the journal is.
  let ring: (JournalEntry | undefined)[] = new Array(capacity)
  let seq = 0
  let cleared = 0
  return {
    capacity,
    record(entry) {
      if (capacity === 0) return
      seq++
      ring[seq % capacity] = { seq, ...entry }
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
      ring = new Array(capacity)
      cleared = seq
    },
  }
}
