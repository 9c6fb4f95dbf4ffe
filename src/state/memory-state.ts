import {
  type ApiKeyInfo,
  type CreateKeyOptions,
  createKeyRegistry,
  type KeyRegistry,
} from '../auth/key-registry.js'
import { createClock, type SandboxClock } from '../clock/clock.js'
import { PetStore, type ReadonlyPetStoreSnapshot, seededSnapshot } from '../db/pet-store.js'
import { DEFAULT_PET_COUNT } from '../db/seed-pets.js'
import { ApiError } from '../http/api-error.js'
import { createJournal, type JournalEntry, type SessionJournal } from '../journal/journal.js'
import { createJournalBudget, type JournalBudget } from '../journal/journal-budget.js'
import { toJournalEntry } from '../journal/to-journal-entry.js'
import type { RateLimitOptions } from '../rate-limit/rate-limit-options.js'
import {
  type BucketSnapshot,
  createRateLimiter,
  type RateLimiter,
} from '../rate-limit/rate-limiter.js'
import { type Sticky, startSticky, stickyName, type Timeline } from '../scenarios/timeline.js'
import { createEmitter } from './emitter.js'
import type { SandboxEvents } from './sandbox-events.js'
import {
  DEFAULT_SESSION,
  type SandboxState,
  type SessionState,
  type SessionSummary,
} from './sandbox-state.js'
import { createScenarioState } from './scenario-state.js'

/** One session held in this process: the seam's synchronous implementation, plus its parts for the controls. */
export interface MemorySessionState extends SessionState {
  /** The session's clock itself (reads; set it through `setClock`/`advanceClock`, which emit `clock`). */
  readonly sandboxClock: SandboxClock
  readonly keys: KeyRegistry
  readonly limiter: RateLimiter
  readonly journal: SessionJournal
  /** The session's own pets (the default scenario's store); reloaded in place by a reset. */
  readonly pets: PetStore
  now(): number
  lookupKey(key: string): ApiKeyInfo | undefined
  quotas(now: number): BucketSnapshot[]
  sticky(): Sticky
  timelineStart(name: string, now: number): number
  setSticky(sticky: Sticky): void
  clock(): { now: number; frozen: boolean }
  setClock(time: Date | number | string): void
  advanceClock(ms: number): void
  useRealTime(): void
  createKey(options: CreateKeyOptions): ApiKeyInfo
  revokeKey(key: string): boolean
  listKeys(): ApiKeyInfo[]
  listJournal(): JournalEntry[]
  clearJournal(): void
  petCount(): number
  reset(): Promise<void>
  ready(): Promise<void> | undefined
  /** Real time (not the session's clock) of the last use, epoch ms. */
  readonly lastUsed: number
  /** Marks the session used now (requests and control calls do). */
  touch(): void
  /** Who opened the session (see `SandboxState.session`); '' for the sandbox's own callers. */
  readonly owner: string
}

export interface MemoryStateOptions {
  seed?: number | undefined
  /** Pets per session (default 25). */
  pets?: number | undefined
  /** The demo and option keys, shared by every session. */
  baseKeys: ReadonlyMap<string, ApiKeyInfo>
  rateLimit?: RateLimitOptions | undefined
  /** Replaces every session's limiter (the benchmark's no-op limiter). */
  limiter?: RateLimiter | undefined
  /** Requests each session's journal keeps (default 500). */
  journalSize?: number | undefined
  /** Requests every session's journal keeps together (default 10,000). */
  journalMaxEntries?: number | undefined
  /** Approximate bytes every session's journal keeps together (default 32 MiB). */
  journalMaxBytes?: number | undefined
  /** Time source of the clocks and of idle times (default `Date.now`). */
  now?: (() => number) | undefined
  /** The sticky scenario of a new or reset session. */
  startScenario: string
  /** The start scenario's timeline, when it is one: it runs from the session's start (or reset). */
  startTimeline?: Timeline | undefined
  /** Idle time after which a session is dropped, in ms (default one hour). */
  sessionTtlMs?: number | undefined
  /** Most sessions alive at once, `default` included (default 1,000). */
  maxSessions?: number | undefined
  /** Told about a failing event listener of a control call (default: ignored). */
  onError?: ((error: unknown) => void) | undefined
}

/** The sessions of a sandbox held in this process. */
export interface MemoryState extends SandboxState {
  keySession(key: string): string | undefined
  findKey(id: string, key: string): ApiKeyInfo | undefined
  session(id: string, owner?: string): MemorySessionState
  /** The session if it exists; never creates one. */
  peekSession(id: string): MemorySessionState | undefined
  /** Every live session, `default` first, then least recently used first. */
  sessions(): MemorySessionState[]
  listSessions(): SessionSummary[]
  /** Drops a session (not `default`); false when there is none. */
  dropSession(id: string): boolean
  /** The server-wide bound on every session's journal. */
  readonly journalBudget: JournalBudget
}

export const DEFAULT_SESSION_TTL_MS = 3_600_000
export const DEFAULT_MAX_SESSIONS = 1_000
const SWEEP_INTERVAL_MS = 1_000

/**
 * The in-memory state: a `default` session, and more created on first use
 * from the same seed (the seeded pets are computed once and loaded into each
 * new store, so no session runs faker again). Idle sessions are dropped after
 * `sessionTtlMs`; once `maxSessions` would be passed, the least recently used
 * session of the owner holding the most (decision 0026); `default` never is.
 * No timers: sweeping happens on use.
 *
 * @example
 * const state = createMemoryState({ baseKeys: createBaseKeys(), startScenario: 'default' })
 * const session = state.session('worker-1')
 */
export const createMemoryState = (options: MemoryStateOptions): MemoryState => {
  const events = createEmitter<SandboxEvents>()
  const index = new Map<string, string>()
  const realNow = options.now ?? (() => Date.now())
  const ttl = options.sessionTtlMs ?? DEFAULT_SESSION_TTL_MS
  const max = options.maxSessions ?? DEFAULT_MAX_SESSIONS
  const count = options.pets ?? DEFAULT_PET_COUNT
  // Faker runs once per seed and count (db's memoized, frozen seededSnapshot):
  // every session and every reset loads the same shared records.
  const seeded = (): ReadonlyPetStoreSnapshot => seededSnapshot({ seed: options.seed, count })
  const journalBudget = createJournalBudget({
    maxEntries: options.journalMaxEntries,
    maxBytes: options.journalMaxBytes,
  })

  const createSession = (id: string, owner = ''): MemorySessionState => {
    const clock = createClock(options.now === undefined ? {} : { source: options.now })
    const keys = createKeyRegistry(options.baseKeys, { session: id, index })
    const limiter = options.limiter ?? createRateLimiter(options.rateLimit)
    const journal = createJournal(options.journalSize, journalBudget)
    const pets = new PetStore()
    const follow = (store: PetStore, name: string): void => {
      // Nobody listening, nothing to wait for: the create stays synchronous.
      store.subscribe((change) =>
        events.has('change')
          ? events.emit('change', { session: id, store: name, type: change.type, pet: change.pet })
          : undefined,
      )
    }
    const scenarioState = createScenarioState({
      seed: options.seed,
      pets: options.pets,
      onBuild: (scenario, store) => follow(store, scenario.name),
    })
    follow(pets, 'default')
    let sticky: Sticky = startSticky(options.startScenario, options.startTimeline, clock.now())
    // Timelines started by their first request (none until one is met).
    let starts: Map<string, number> | undefined
    let lastUsed = realNow()
    let loaded = false
    const whenLoaded = (load: Promise<void>): Promise<void> =>
      load.then(() => {
        loaded = true
      })
    let loading = whenLoaded(pets.load(seeded()))
    const emit = <K extends keyof SandboxEvents>(type: K, event: SandboxEvents[K]): void => {
      events.emit(type, event).catch(options.onError ?? (() => {}))
    }
    const clockChanged = (): void =>
      emit('clock', { session: id, now: clock.now(), frozen: clock.frozen })
    const session: MemorySessionState = {
      id,
      owner,
      sandboxClock: clock,
      keys,
      limiter,
      journal,
      pets,
      get lastUsed() {
        return lastUsed
      },
      ready: () => (loaded ? undefined : loading),
      now: () => clock.now(),
      lookupKey: (key) => keys.lookup(key),
      take: (request) => limiter.take(request),
      peek: (request) => limiter.peek(request),
      quotas: (now) => limiter.snapshot(now),
      sticky: () => sticky,
      timelineStart(name, now) {
        starts ??= new Map()
        const start = starts.get(name)
        if (start !== undefined) return start
        starts.set(name, now)
        return now
      },
      setSticky(value) {
        sticky = value
        emit('scenario', {
          session: id,
          name: stickyName(value),
          ...(typeof value === 'string' ? {} : { timeline: value }),
        })
      },
      clock: () => ({ now: clock.now(), frozen: clock.frozen }),
      setClock(time) {
        clock.set(time)
        clockChanged()
      },
      advanceClock(ms) {
        clock.advance(ms)
        clockChanged()
      },
      useRealTime() {
        clock.useRealTime()
        clockChanged()
      },
      createKey(keyOptions) {
        const info = keys.create(keyOptions)
        emit('keys', { session: id, type: 'create', key: info })
        return info
      },
      revokeKey(key) {
        const info = keys.lookup(key)
        if (info === undefined || !keys.revoke(key)) return false
        emit('keys', { session: id, type: 'revoke', key: info })
        return true
      },
      listKeys: () => keys.list(),
      listJournal: () => journal.records().map(toJournalEntry),
      clearJournal: () => journal.clear(),
      petCount: () => pets.count,
      store: (scenario) => scenarioState.store(scenario) ?? pets,
      random: (scenario) => scenarioState.random(scenario),
      record: (entry) => journal.record(entry),
      markAborted(record) {
        record.aborted = true
      },
      touch() {
        lastUsed = realNow()
      },
      reset() {
        clock.useRealTime()
        sticky = startSticky(options.startScenario, options.startTimeline, clock.now())
        starts = undefined
        limiter.reset()
        scenarioState.reset()
        keys.reset()
        journal.clear()
        // Reloaded in place: whoever follows the store keeps following it.
        loaded = false
        loading = whenLoaded(pets.load(seeded())).then(() => events.emit('reset', { session: id }))
        return loading
      },
    }
    return session
  }

  const defaultSession = createSession(DEFAULT_SESSION)
  // Every other session, least recently used first.
  const others = new Map<string, MemorySessionState>()

  // How many sessions each owner holds (`default` is nobody's).
  const holdings = new Map<string, number>()
  const hold = (owner: string, delta: number): void => {
    const held = (holdings.get(owner) ?? 0) + delta
    if (held > 0) holdings.set(owner, held)
    else holdings.delete(owner)
  }

  const drop = (id: string): boolean => {
    const session = others.get(id)
    if (session === undefined) return false
    others.delete(id)
    hold(session.owner, -1)
    session.keys.reset()
    session.journal.clear()
    void events.emit('session', { session: id, type: 'drop' }).catch(() => {})
    return true
  }

  // Sweeping walks the LRU order from its oldest end; at most once a second, so a busy
  // session pays nothing for it (idle sessions go within a second of their TTL).
  let sweptAt = Number.NEGATIVE_INFINITY
  /** The most recently used session: using it again needs no reordering. */
  let newest: MemorySessionState | undefined
  const sweepIdle = (now: number): void => {
    if (now - sweptAt < SWEEP_INTERVAL_MS) return
    sweptAt = now
    for (const [id, session] of others) {
      if (now - session.lastUsed < ttl) break
      drop(id)
    }
  }

  /**
   * The session to drop for `owner` to open one at the limit (decision 0026):
   * the least recently used session of whoever holds the most, the opener
   * counted with the session it opens and chosen on a tie. So a caller evicts
   * only its own sessions unless another holds more than it would.
   */
  const evictionVictim = (owner: string): string | undefined => {
    const mine = (holdings.get(owner) ?? 0) + 1
    let most = 0
    for (const [who, held] of holdings) if (who !== owner && held > most) most = held
    for (const [id, session] of others) {
      if (mine >= most ? session.owner === owner : holdings.get(session.owner) === most) return id
    }
    // The opener holds none and nobody holds more than one: the least recently used.
    return others.keys().next().value
  }

  return {
    events,
    keySession: (key) => index.get(key),
    findKey(id, key) {
      const session = id === DEFAULT_SESSION ? defaultSession : others.get(id)
      // A session not opened yet would see the demo and option keys, none revoked.
      return session === undefined ? options.baseKeys.get(key) : session.lookupKey(key)
    },
    session(id, owner) {
      if (id === DEFAULT_SESSION) {
        defaultSession.touch()
        return defaultSession
      }
      sweepIdle(realNow())
      if (newest !== undefined && newest.id === id && others.get(id) === newest) {
        newest.touch()
        return newest
      }
      let session = others.get(id)
      if (session !== undefined) {
        others.delete(id)
      } else {
        if (others.size + 1 >= max) {
          const victim = evictionVictim(owner ?? '')
          if (victim === undefined)
            throw new ApiError(
              'session_limit_reached',
              `No session can be created: the limit is ${max} sessions, default included. Raise --max-sessions or drop a session.`,
              { headers: { 'Retry-After': '1' } },
            )
          drop(victim)
        }
        session = createSession(id, owner)
        hold(session.owner, 1)
        void events.emit('session', { session: id, type: 'create' }).catch(() => {})
      }
      others.set(id, session)
      session.touch()
      newest = session
      return session
    },
    peekSession: (id) => (id === DEFAULT_SESSION ? defaultSession : others.get(id)),
    openedSession(id) {
      if (id === DEFAULT_SESSION) return defaultSession
      // An idle session past its time is gone, as the next request would find it.
      const session = others.get(id)
      return session !== undefined && realNow() - session.lastUsed < ttl ? session : undefined
    },
    sessions: () => [defaultSession, ...others.values()],
    listSessions: () =>
      [defaultSession, ...others.values()].map((session) => ({
        id: session.id,
        pets: session.pets.count,
        scenario: stickyName(session.sticky()),
        requests: session.journal.size,
        lastUsed: new Date(session.lastUsed).toISOString(),
      })),
    dropSession: drop,
    journalBudget,
    recentRequests(cursor, max) {
      const after = cursor === undefined ? 0 : Number(cursor)
      const recent = journalBudget.recent(Number.isSafeInteger(after) && after > 0 ? after : 0, max)
      return {
        entries: recent.records.map(toJournalEntry),
        cursor: String(recent.cursor),
        skipped: cursor === undefined ? 0 : recent.skipped,
      }
    },
  }
}
