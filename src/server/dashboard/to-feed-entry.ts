import type { JournalEntry } from '../../journal/journal.js'
import type { FeedEntry } from './dashboard-types.js'

/**
 * The log's entry for a journal entry: the journal already redacts secrets
 * and caps bodies (src/journal); the log shows the path and query only.
 *
 * @example
 * const entries = (await sandbox.state.recentRequests(cursor, 100)).entries.map(toFeedEntry)
 */
export const toFeedEntry = (entry: JournalEntry): FeedEntry => {
  let url = entry.url
  try {
    const parsed = new URL(entry.url)
    url = `${parsed.pathname}${parsed.search}`
  } catch {}
  return { ...entry, url }
}
