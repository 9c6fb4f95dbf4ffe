import type { ApiKeyInfo, CreateKeyOptions } from '../auth/key-registry.js'
import type { PlanLimits } from '../contract/plans.js'
import type { PetRecords } from '../db/pet-records.js'
import type { Awaitable } from '../http/awaitable.js'
import type { JournalCapture, JournalEntry, JournalRecord } from '../journal/journal.js'
import type { BucketSnapshot, RateLimitDecision, TakeRequest } from '../rate-limit/rate-limiter.js'
import type { Scenario } from '../scenarios/define-scenario.js'
import type { Sticky } from '../scenarios/timeline.js'
import type { Emitter } from './emitter.js'
import type { SandboxEvents } from './sandbox-events.js'

/**
 * The state seam: everything a request reads or writes, for one session.
 * Each call answers a value or a promise, and the pipeline waits only for a
 * promise (decision 0039), so the in-memory state (synchronous) and a shared
 * state (Redis, asynchronous) are two implementations of this one interface.
 * See docs/decisions/0009-one-layering.md.
 */
export interface SessionState {
  readonly id: string
  /**
   * Resolves once the session's pets are in place (after creation or a
   * reset); undefined when they are (nothing to wait for on the hot path).
   */
  ready(): Awaitable<void>
  /** The moment by this session's clock, epoch ms (read once per request). */
  now(): Awaitable<number>
  /** A key as this session sees it (revocations are per session). */
  lookupKey(key: string): Awaitable<ApiKeyInfo | undefined>
  /** Counts a request against a bucket of this session (exact under concurrency). */
  take(request: TakeRequest): Awaitable<RateLimitDecision>
  /** The key buckets as of `now`, without counting or changing anything (the dashboard's gauges). */
  quotas(now: number): Awaitable<BucketSnapshot[]>
  /** A bucket's headers without counting (OPTIONS answers). */
  peek(request: {
    bucket: string
    limits: PlanLimits
    now: number
  }): Awaitable<Pick<RateLimitDecision, 'headers'>>
  /** The sticky scenario: a name, or a timeline with the moment it started (`stickyName` names either). */
  sticky(): Awaitable<Sticky>
  /**
   * When a timeline named without a start of its own (per request, by a key,
   * or as the start scenario) started in this session: the first request that
   * met it, until the next reset. Asked only when a timeline is in play.
   */
  timelineStart(name: string, now: number): Awaitable<number>
  /** The pets a request in this scenario reads and writes. */
  store(scenario: Scenario): Awaitable<PetRecords>
  /** The next number of a scenario's seeded stream in this session. */
  random(scenario: Scenario): number
  /**
   * Journals an answered request. The capture holds references (no copies);
   * the journal bounds it and returns it as its record, numbered. Never
   * redacts or serializes on the request's path (decision 0020).
   */
  record(capture: JournalCapture): Awaitable<JournalRecord>
  /**
   * Marks a record of this session `aborted` (the client went away before its
   * answer arrived), where its readers see it: the record in memory, the
   * entry in a shared store. Never on the request's path (decision 0032).
   */
  markAborted(record: JournalRecord): Awaitable<void>

  // The controls (the control API awaits these; the in-memory ones are synchronous).
  // Every mutation emits its event on the sandbox (`scenario`, `clock`, `keys`, `reset`).
  /** Makes a scenario or a timeline sticky (the caller has checked the names). */
  setSticky(sticky: Sticky): Awaitable<void>
  clock(): Awaitable<{ now: number; frozen: boolean }>
  /** Freezes the clock at this moment (epoch ms, Date or ISO string); throws a TypeError for a bad time. */
  setClock(time: Date | number | string): Awaitable<void>
  /** Freezes the clock at now + ms; throws a TypeError for a bad amount. */
  advanceClock(ms: number): Awaitable<void>
  useRealTime(): Awaitable<void>
  /** Creates a run-time key bound to this session; throws KeyOptionError for bad options. */
  createKey(options: CreateKeyOptions): Awaitable<ApiKeyInfo>
  revokeKey(key: string): Awaitable<boolean>
  listKeys(): Awaitable<ApiKeyInfo[]>
  /** The session's journal, oldest first, as readers see it (secrets redacted). */
  listJournal(): Awaitable<JournalEntry[]>
  clearJournal(): Awaitable<void>
  /** How many pets the session's own store holds. */
  petCount(): Awaitable<number>
  /** Back to the seeded pets, the start scenario, the real clock, fresh quotas, no run-time keys, an empty journal. */
  reset(): Promise<void>
}

/** A session as listings show it. */
export interface SessionSummary {
  id: string
  /** Pets in the session's own store. */
  pets: number
  /** The sticky scenario. */
  scenario: string
  /** Requests in the session's journal (at most the journal's size). */
  requests: number
  /** When the session was last used, ISO time (real time). */
  lastUsed: string
}

/** The newest requests of every session after a cursor: what the dashboard's feed polls. */
export interface RecentRequests {
  /** Oldest first. */
  entries: JournalEntry[]
  /** Pass it to the next call to get only newer requests. */
  cursor: string
  /** Requests after the given cursor that are not in `entries` (past `max`, or evicted). */
  skipped: number
}

/** The sessions of a sandbox and what they share. */
export interface SandboxState {
  readonly events: Emitter<SandboxEvents>
  /**
   * The newest requests answered after `cursor` (undefined: the newest `max`),
   * across every session, at most `max`. Costs nothing per request: it reads
   * the server-wide journal (decision 0020).
   */
  recentRequests(cursor: string | undefined, max: number): Awaitable<RecentRequests>
  /** The session a run-time key belongs to, when it is one. */
  keySession(key: string): Awaitable<string | undefined>
  /**
   * A key as the session of that id sees it, without opening or touching the
   * session: one not opened yet sees the demo and option keys. How a request
   * is authenticated before it may use a session (decision 0026).
   */
  findKey(id: string, key: string): Awaitable<ApiKeyInfo | undefined>
  /**
   * The session of that id, created on first use from the seed and marked
   * used; throws 503 `session_limit_reached` when none can be dropped to make
   * room. `owner` names who opens it (a caller, see `sessionOwner`); at the
   * session limit the session dropped is the least recently used one of the
   * owner holding the most, the opener counted with its new session
   * (decision 0026). Omitted: the sandbox's own callers (control API, code).
   */
  session(id: string, owner?: string): Awaitable<SessionState>
  /**
   * The session of that id if it exists, without creating, touching (last
   * use) or evicting it: where a request without a valid key that names it is
   * journaled (decisions 0026, 0047). Undefined when there is none.
   */
  openedSession(id: string): Awaitable<SessionState | undefined>
  /** Every live session, `default` first. */
  listSessions(): Awaitable<SessionSummary[]>
  /** Drops a session other than `default` with everything in it; false when there is none. */
  dropSession(id: string): Awaitable<boolean>
}

/** The id every request uses unless it chooses another; never dropped. */
export const DEFAULT_SESSION = 'default'

/** Session ids: 1-64 characters of A-Z a-z 0-9 . _ - (contract §12). */
export const SESSION_ID = /^[A-Za-z0-9._-]{1,64}$/

/**
 * Drops every session but `default`, with the run-time keys bound to them,
 * through the seam alone (`listSessions` and `dropSession`), so it works the
 * same in memory and on a shared store. Sessions created meanwhile survive.
 * Resolves how many were dropped.
 *
 * @example
 * await dropOtherSessions(sandbox.state) // what reset({ sessions: 'all' }) does first
 */
export const dropOtherSessions = async (state: SandboxState): Promise<number> => {
  let dropped = 0
  for (const { id } of await state.listSessions())
    if (id !== DEFAULT_SESSION && (await state.dropSession(id))) dropped += 1
  return dropped
}
