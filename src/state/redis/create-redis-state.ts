import { createHash } from 'node:crypto'
import type { Cluster, Redis } from 'ioredis'
import type { ApiKeyInfo } from '../../auth/key-registry.js'
import { DEFAULT_PET_COUNT, DEFAULT_SEED, seedPets } from '../../db/seed-pets.js'
import { ApiError } from '../../http/api-error.js'
import { DEFAULT_JOURNAL_SIZE } from '../../journal/journal.js'
import {
  DEFAULT_JOURNAL_MAX_BYTES,
  DEFAULT_JOURNAL_MAX_ENTRIES,
} from '../../journal/journal-budget.js'
import type { SharedCollections } from '../../openapi/openapi-records.js'
import {
  type RateLimitOptions,
  resolveRateLimitOptions,
} from '../../rate-limit/rate-limit-options.js'
import { ANONYMOUS_BUCKET_CAP } from '../../rate-limit/rate-limiter.js'
import type { StickyTimeline, Timeline } from '../../scenarios/timeline.js'
import { stickyName } from '../../scenarios/timeline.js'
import type { AccountStore } from '../account-store.js'
import type { Emitter } from '../emitter.js'
import { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_TTL_MS } from '../memory-state.js'
import type { SandboxEvents } from '../sandbox-events.js'
import { DEFAULT_SESSION, type SandboxState } from '../sandbox-state.js'
import type { CachedPets } from './cached-pets.js'
import { createRedisAccountStore } from './redis-accounts.js'
import { createRedisCollections } from './redis-collections.js'
import { openRedisConnection, redactUrl } from './redis-connection.js'
import { createRedisJournal } from './redis-journal.js'
import { createRedisPets } from './redis-pets.js'
import { createRedisSessions } from './redis-sessions.js'
import type { RedisStateContext } from './redis-state-context.js'
import { createSessionView } from './session-view.js'

export const DEFAULT_REDIS_PREFIX = 'petstore-sandbox:'

export interface RedisStateOptions {
  /** `redis://HOST:PORT/DB` (or `rediss://`), or `redis+cluster://HOST:PORT[,HOST:PORT…]` for a Redis Cluster. */
  url: string
  /** Prefix of every key, so that several sandboxes share one Redis (default `petstore-sandbox:`). */
  prefix?: string | undefined
  /** The sandbox's events: each instance emits those of its own requests and control calls. */
  events: Emitter<SandboxEvents>
  seed?: number | undefined
  pets?: number | undefined
  baseKeys: ReadonlyMap<string, ApiKeyInfo>
  rateLimit?: RateLimitOptions | undefined
  journalSize?: number | undefined
  /** Entries every session's journal keeps together (default 10,000). */
  journalMaxEntries?: number | undefined
  /** Approximate bytes every session's journal keeps together (default 32 MiB), counted over the stored JSON. */
  journalMaxBytes?: number | undefined
  /** How long this instance holds journal entries before writing them (ms, default 1,000; decision 0069). */
  journalFlushMs?: number | undefined
  /** Time source of the clocks and of idle times (default `Date.now`). */
  now?: (() => number) | undefined
  startScenario: string
  /** The start scenario's timeline, when it is one: it runs from each session's start (or reset). */
  startTimeline?: Timeline | undefined
  sessionTtlMs?: number | undefined
  maxSessions?: number | undefined
  onError?: ((error: unknown) => void) | undefined
  /** Command timeout in ms (default 1,000). */
  commandTimeoutMs?: number | undefined
}

/** The Redis state: the seam, plus what its owner needs. */
export interface RedisState extends SandboxState {
  /** The client (tests and the benchmark count its commands): one Redis, or a Cluster. */
  readonly redis: Redis | Cluster
  readonly prefix: string
  /** Disconnects. */
  close(): Promise<void>
  /** This instance's last known view of a session (no round trip; may be behind other instances). */
  peek(id: string): LastKnown | undefined
  /** The OpenAPI document's records (the `openapi` option), per session. */
  readonly collections: SharedCollections
  /** Accounts and their keys (contract §22), on the store (decision 0062). */
  readonly accounts: AccountStore
}

/** What an instance last saw of a session: for synchronous displays (the dashboard), never for decisions. */
export interface LastKnown {
  sticky: string
  timeline: StickyTimeline | undefined
  frozen: number | undefined
  keys: ApiKeyInfo[]
  /** The session's own pets as last read, when this instance has read them. */
  pets: CachedPets | undefined
}

/**
 * Creates the Redis state and connects; rejects with a clear message when
 * Redis cannot be reached or holds a sandbox seeded differently under the
 * same prefix. Loaded only when the `store` option is given. Its parts, one
 * file each: sessions (redis-sessions.ts), limits (redis-limits.ts), pets
 * (redis-pets.ts), the journal (redis-journal.ts), and one session as a
 * request sees it (session-view.ts). See docs/decisions/0014-redis-shared-state.md.
 *
 * @example
 * const state = await createRedisState({ url: 'redis://127.0.0.1:6379/0', events, baseKeys, startScenario: 'default' })
 */
export const createRedisState = async (options: RedisStateOptions): Promise<RedisState> => {
  const prefix = options.prefix ?? DEFAULT_REDIS_PREFIX
  const { events } = options
  const { banAfter, banMs } = resolveRateLimitOptions(options.rateLimit)
  const onError = options.onError ?? (() => {})
  const connection = await openRedisConnection({
    url: options.url,
    prefix,
    commandTimeoutMs: options.commandTimeoutMs,
  })
  const seed = options.seed ?? DEFAULT_SEED
  const petCount = options.pets ?? DEFAULT_PET_COUNT
  // What instances sharing a store must agree on: the seeded pets.
  const fingerprint = createHash('sha1')
    .update(JSON.stringify({ seed, pets: seedPets({ seed, count: petCount }) }))
    .digest('hex')
  const ctx: RedisStateContext = {
    connection,
    events,
    emit: (type, event) => {
      events.emit(type, event).catch(onError)
    },
    onError,
    baseKeys: options.baseKeys,
    realNow: options.now ?? (() => Date.now()),
    seed,
    fingerprint,
    petCount,
    journalSize: options.journalSize ?? DEFAULT_JOURNAL_SIZE,
    startScenario: options.startScenario,
    startTimeline: options.startTimeline,
    sessionTtlMs: options.sessionTtlMs ?? DEFAULT_SESSION_TTL_MS,
    maxSessions: options.maxSessions ?? DEFAULT_MAX_SESSIONS,
    banAfter,
    banMs,
    maxAnonymousBuckets: ANONYMOUS_BUCKET_CAP,
  }
  const sessions = createRedisSessions(ctx)
  const pets = createRedisPets(ctx)
  const journal = createRedisJournal({
    ...ctx,
    journalMaxEntries: options.journalMaxEntries ?? DEFAULT_JOURNAL_MAX_ENTRIES,
    journalMaxBytes: options.journalMaxBytes ?? DEFAULT_JOURNAL_MAX_BYTES,
    journalFlushMs: options.journalFlushMs,
  })
  const parts = { ctx, sessions, pets, journal }

  // Start: connect, claim the store (or check it holds this sandbox's seed), open `default`.
  await connection.connect()
  try {
    await sessions.open(DEFAULT_SESSION)
  } catch (error) {
    connection.client.disconnect()
    if (error instanceof ApiError && error.message.includes('other seeded pets'))
      throw new Error(
        `the Redis store ${redactUrl(options.url)} holds, under the prefix "${prefix}", a sandbox with other seeded pets (another --seed or --pets). Start every instance with the same --seed and --pets, or choose another database or --store-prefix.`,
      )
    throw error instanceof ApiError
      ? new Error(`the Redis store ${redactUrl(options.url)} failed: ${error.message}`)
      : error
  }
  // Answers the other instances' asks for what this one holds (decision 0069).
  await journal.start()

  return {
    redis: connection.client,
    prefix,
    events,
    keySession: (key) => sessions.keySession(key),
    recentRequests: (cursor, max) => journal.recent(cursor, max),
    // Accounts, keys, revocations and rolls on the store: every instance at once (decision 0062).
    accounts: createRedisAccountStore(connection),
    // A session this instance holds costs no round trip here (its request's `take` checks it).
    findKey: (id, key) => sessions.findKey(id, key),
    session: (id, owner) =>
      sessions.cached(id) === undefined
        ? sessions.open(id, owner).then(() => createSessionView(parts, id))
        : createSessionView(parts, id),
    openedSession: (id) =>
      sessions.cached(id) !== undefined
        ? createSessionView(parts, id)
        : sessions.load(id).then((found) => (found ? createSessionView(parts, id) : undefined)),
    // Each session's count of requests: once every instance has written what it holds.
    listSessions: () => journal.settle(undefined).then(() => sessions.list()),
    dropSession: (id) => sessions.drop(id),
    async close() {
      await journal.close()
      await connection.close()
    },
    collections: createRedisCollections(ctx),
    peek(id) {
      const entry = sessions.cached(id)
      if (entry === undefined) return undefined
      return {
        sticky: stickyName(entry.sticky),
        timeline: typeof entry.sticky === 'string' ? undefined : entry.sticky,
        frozen: entry.frozen,
        keys: sessions.keysOf(entry),
        pets: entry.stores.get('default'),
      }
    },
  }
}
