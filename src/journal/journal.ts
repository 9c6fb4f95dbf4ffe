import { createJournalBudget, type JournalBudget } from './journal-budget.js'
import type { JournalRecord, SessionJournal } from './journal-entry.js'

export type {
  AnswerSource,
  JournalCapture,
  JournalEntry,
  JournalMessage,
  JournalPhase,
  JournalRecord,
  SessionJournal,
  Violation,
} from './journal-entry.js'
export { JOURNAL_LIMITS } from './journal-entry.js'

/** Requests each session's journal keeps by default (option `journalSize`). */
export const DEFAULT_JOURNAL_SIZE = 500

/**
 * A session's journal: an array used as a queue (the budget always evicts a
 * session's oldest record, so the head is the only place records leave).
 *
 * @example
 * const budget = createJournalBudget({ maxEntries: 10_000, maxBytes: 32 * 1024 * 1024 })
 * const journal = createJournal(500, budget)
 */
export const createJournal = (
  capacity: number = DEFAULT_JOURNAL_SIZE,
  budget: JournalBudget = createJournalBudget(),
): SessionJournal => {
  if (!Number.isInteger(capacity) || capacity < 0) {
    throw new TypeError(
      `Failed to create the request journal: capacity ${capacity} must be a whole number >= 0.`,
    )
  }
  let queue: JournalRecord[] = []
  let head = 0
  let seq = 0
  const shift = (): void => {
    queue[head] = undefined as unknown as JournalRecord
    head++
    // Compact once the dead front is half the array: amortised O(1).
    if (head > 64 && head * 2 > queue.length) {
      queue = queue.slice(head)
      head = 0
    }
  }
  const journal: SessionJournal = {
    capacity,
    record(capture) {
      seq++
      const record = budget.admit(capture, seq)
      if (capacity === 0 || !budget.keeps) return record
      if (queue.length - head >= capacity) {
        const oldest = queue[head] as JournalRecord
        shift()
        budget.unlink(oldest)
      }
      record.owner = journal
      queue.push(record)
      budget.link(record)
      return record
    },
    records: () => queue.slice(head),
    get size() {
      return queue.length - head
    },
    clear() {
      for (let i = head; i < queue.length; i++) budget.unlink(queue[i] as JournalRecord)
      queue = []
      head = 0
    },
    evictOldest(record) {
      if (queue[head] === record) shift()
    },
  }
  return journal
}
