import type { ApiKeyInfo } from '../auth/key-registry.js'
import type { Pet } from '../contract/pet.js'
import type { JournalEntry } from '../journal/journal.js'
import type { StickyTimeline } from '../scenarios/timeline.js'

/**
 * The typed events of a sandbox. Extensions (localStorage persistence, the
 * data file, the dashboard's live feed) subscribe to these instead of
 * replacing the sandbox's methods. Every event names its session.
 */
export interface SandboxEvents {
  /** A request was answered (or failed on purpose): its journal entry. */
  request: JournalEntry
  /**
   * A pet was created. `store` is `default` for the session's own pets, or the
   * scenario's name for a scenario's store. Listeners run before the response
   * is sent (the data file is written by then).
   */
  change: { session: string; store: string; type: 'create'; pet: Pet }
  /** A session was reset (its pets reloaded in place, keys, quotas, clock and journal fresh). */
  reset: { session: string }
  /** A run-time key was created, or any key revoked. */
  keys: { session: string; type: 'create' | 'revoke'; key: ApiKeyInfo }
  /** The sticky scenario changed: its name, and the timeline when it is one. */
  scenario: { session: string; name: string; timeline?: StickyTimeline }
  /** The clock was set, advanced, or sent back to real time. */
  clock: { session: string; now: number; frozen: boolean }
  /** A session was created on first use, or dropped (idle, over the limit, or on request). */
  session: { session: string; type: 'create' | 'drop' }
}
