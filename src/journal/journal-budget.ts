import { boundCapture } from './bound-capture.js'
import type { JournalCapture, JournalRecord } from './journal-entry.js'

/** Entries every session's journal may hold together, by default (option `journalMaxEntries`). */
export const DEFAULT_JOURNAL_MAX_ENTRIES = 10_000
/** Approximate bytes every session's journal may hold together, by default (option `journalMaxBytes`). */
export const DEFAULT_JOURNAL_MAX_BYTES = 32 * 1024 * 1024
/** The largest budget the options, the flags and the config file accept (0 is the smallest: keep none). */
export const JOURNAL_BUDGET_CEILINGS = {
  maxEntries: 10_000_000,
  maxBytes: 16 * 1024 * 1024 * 1024,
} as const

export interface JournalBudgetOptions {
  /** Most records held across every session (default 10,000; 0 keeps none). */
  maxEntries?: number | undefined
  /** Most bytes held across every session, approximately (default 32 MiB; 0 keeps none). */
  maxBytes?: number | undefined
}

/** Records newer than a cursor, as the dashboard's feed polls them. */
export interface RecentRecords {
  /** Oldest first; at most `max`, the newest ones. */
  records: JournalRecord[]
  /** The cursor to pass next time. */
  cursor: number
  /** Records newer than the cursor that were not returned (past `max`, or already evicted). */
  skipped: number
}

/**
 * The server-wide bound on the request journal: one list of every session's
 * records, oldest first, trimmed from its old end whenever the entries or the
 * bytes pass the budget. A record leaves its session's journal when it leaves
 * the budget, so memory is bounded by the server, whatever the number of
 * sessions or the size of the requests (docs/decisions/0020-journal-entry.md).
 */
export interface JournalBudget {
  readonly maxEntries: number
  readonly maxBytes: number
  /** False when the budget is 0: nothing is kept. */
  readonly keeps: boolean
  /** Records held and their approximate bytes. */
  readonly entries: number
  readonly bytes: number
  /** Bounds a capture (long values cut, the request body copied) and numbers it: the capture becomes the record. */
  admit(capture: JournalCapture, seq: number): JournalRecord
  /** Appends a record (a session journal has taken it), then trims the oldest past the budget. */
  link(record: JournalRecord): void
  /** Removes a record (its session dropped it). */
  unlink(record: JournalRecord): void
  /** The newest records after `cursor` (every session), at most `max`. */
  recent(cursor: number, max: number): RecentRecords
}

const checkLimit = (name: string, value: number | undefined, fallback: number): number => {
  if (value === undefined) return fallback
  if (!Number.isSafeInteger(value) || value < 0)
    throw new TypeError(
      `Failed to create the request journal: ${name} must be a whole number >= 0, got ${String(value)}.`,
    )
  return value
}

/**
 * @example
 * const budget = createJournalBudget({ maxEntries: 10_000, maxBytes: 32 * 1024 * 1024 })
 */
export const createJournalBudget = (options: JournalBudgetOptions = {}): JournalBudget => {
  const maxEntries = checkLimit(
    'journalMaxEntries',
    options.maxEntries,
    DEFAULT_JOURNAL_MAX_ENTRIES,
  )
  const maxBytes = checkLimit('journalMaxBytes', options.maxBytes, DEFAULT_JOURNAL_MAX_BYTES)
  let oldest: JournalRecord | undefined
  let newest: JournalRecord | undefined
  let entries = 0
  let bytes = 0
  let order = 0

  const unlink = (record: JournalRecord): void => {
    if (record.owner === undefined) return
    record.owner = undefined
    if (record.older === undefined) oldest = record.newer
    else record.older.newer = record.newer
    if (record.newer === undefined) newest = record.older
    else record.newer.older = record.older
    record.older = undefined
    record.newer = undefined
    entries--
    bytes -= record.bytes
  }

  return {
    maxEntries,
    maxBytes,
    keeps: maxEntries > 0 && maxBytes > 0,
    get entries() {
      return entries
    },
    get bytes() {
      return bytes
    },
    admit(capture, seq) {
      const record = boundCapture(capture)
      record.seq = seq
      record.order = ++order
      return record
    },
    link(record) {
      record.older = newest
      if (newest === undefined) oldest = record
      else newest.newer = record
      newest = record
      entries++
      bytes += record.bytes
      while (oldest !== undefined && (entries > maxEntries || bytes > maxBytes)) {
        const evicted: JournalRecord = oldest
        evicted.owner?.evictOldest(evicted)
        unlink(evicted)
      }
    },
    unlink,
    recent(cursor, max) {
      const records: JournalRecord[] = []
      let record = newest
      while (record !== undefined && record.order > cursor && records.length < max) {
        records.push(record)
        record = record.older
      }
      records.reverse()
      // `order` counts every admitted record, so what lies between is what was not returned.
      const skipped = Math.max(0, order - Math.max(cursor, 0) - records.length)
      return { records, cursor: order, skipped }
    },
  }
}
