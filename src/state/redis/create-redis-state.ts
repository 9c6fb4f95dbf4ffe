import { createHash } from 'node:crypto'
import type { Redis } from 'ioredis'
import {
  type ApiKeyInfo,
  type CreateKeyOptions,
  createKeyRegistry,
  KeyExistsError,
} from '../../auth/key-registry.js'
import { createClock } from '../../clock/clock.js'
import type { NewPet, Pet } from '../../contract/pet.js'
import { IdSpaceExhaustedError } from '../../db/id-space-exhausted-error.js'
import type { PetRecords } from '../../db/pet-records.js'
import { PetStore } from '../../db/pet-store.js'
import { DEFAULT_PET_COUNT, DEFAULT_SEED, seedPets } from '../../db/seed-pets.js'
import { ApiError } from '../../http/api-error.js'
import { createJournal, type JournalEntry } from '../../journal/journal.js'
import { createJournalBudget } from '../../journal/journal-budget.js'
import { toJournalEntry } from '../../journal/to-journal-entry.js'
import {
  banEnd,
  DAY_MS,
  describeWindow,
  MINUTE_MS,
  retryAfterSeconds,
  type WindowState,
  windowEnd,
} from '../../rate-limit/describe-window.js'
import {
  type RateLimitOptions,
  resolveRateLimitOptions,
} from '../../rate-limit/rate-limit-options.js'
import type { RateLimitDecision, TakeRequest } from '../../rate-limit/rate-limiter.js'
import { createSeededRandom } from '../../scenarios/create-seeded-random.js'
import type { Scenario } from '../../scenarios/define-scenario.js'
import type { Emitter } from '../emitter.js'
import { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_TTL_MS } from '../memory-state.js'
import type { SandboxEvents } from '../sandbox-events.js'
import {
  DEFAULT_SESSION,
  type SandboxState,
  type SessionState,
  type SessionSummary,
} from '../sandbox-state.js'
import { StaleStateError } from '../stale-state.js'
import { CachedPets } from './cached-pets.js'
import {
  CONFIG_SCRIPT,
  CONTROL_SCRIPT,
  CREATE_SCRIPT,
  JOURNAL_SCRIPT,
  LIMIT_SCRIPT,
  LOAD_SCRIPT,
  NEXT_SEQ_SCRIPT,
  OPEN_SCRIPT,
  RECORD_SCRIPT,
  SESSIONS_SCRIPT,
  STORE_RANGE_SCRIPT,
  TAKE_SCRIPT,
} from './lua.js'

export const DEFAULT_REDIS_PREFIX = 'petstore-sandbox:'
/** Longest a Redis command may take before the request is answered 503 (ms). */
export const DEFAULT_COMMAND_TIMEOUT_MS = 1_000

export interface RedisStateOptions {
  /** `redis://HOST:PORT/DB` (or `rediss://`). */
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
  /** Time source of the clocks and of idle times (default `Date.now`). */
  now?: (() => number) | undefined
  startScenario: string
  sessionTtlMs?: number | undefined
  maxSessions?: number | undefined
  onError?: ((error: unknown) => void) | undefined
  /** Command timeout in ms (default 1,000). */
  commandTimeoutMs?: number | undefined
}

/** The Redis state: the seam, plus what its owner needs. */
export interface RedisState extends SandboxState {
  /** The client (tests and the benchmark count its commands). */
  readonly redis: Redis
  readonly prefix: string
  /** Disconnects. */
  close(): Promise<void>
  /** This instance's last known view of a session (no round trip; may be behind other instances). */
  peek(id: string): LastKnown | undefined
}

/** What an instance last saw of a session: for synchronous displays (the dashboard), never for decisions. */
export interface LastKnown {
  sticky: string
  frozen: number | undefined
  keys: ApiKeyInfo[]
  /** The session's own pets as last read, when this instance has read them. */
  pets: CachedPets | undefined
}

/** What an instance holds of one session: read from Redis, checked by every request's one round trip. */
interface CachedSession {
  v: string
  sticky: string
  frozen: number | undefined
  epoch: string
  pv: string
  runtime: Map<string, ApiKeyInfo & { n: number }>
  revoked: Set<string>
  stores: Map<string, CachedPets>
  /** Store refreshes in flight, one per store. */
  refreshing: Map<string, Promise<void>>
  streams: Map<string, () => number>
}

type LoadReply =
  | ['missing', string, string[] | null]
  | ['ok', string, string[] | null, string, string, string, string, string, string[], string[]]

const SERVER_UNAVAILABLE = /^(LOADING|BUSY|MASTERDOWN|READONLY|MISCONF|TRYAGAIN|NOREPLICAS)/

/** The answer while Redis cannot be reached: 503 with Retry-After (contract §13). */
export const storeUnavailable = (): ApiError =>
  new ApiError(
    'service_unavailable',
    'The sandbox cannot reach its shared store (Redis). Retry in a moment.',
    { headers: { 'Retry-After': '1' } },
  )

/** A Redis failure (connection lost, timeout, a server not ready) becomes the 503; our own errors pass. */
const toStoreError = (error: unknown): unknown => {
  if (error instanceof ApiError || error instanceof TypeError) return error
  if (isReplyError(error) && !SERVER_UNAVAILABLE.test(error.message)) return error
  return storeUnavailable()
}

/** An error Redis itself answered (as opposed to a lost connection or a timeout). */
const isReplyError = (error: unknown): error is Error =>
  error instanceof Error && error.name === 'ReplyError'

const toNewPet = ({ name, categoryId, status }: NewPet): NewPet => ({ name, categoryId, status })

/** A limiter script's reply as a decision: the arithmetic of describe-window.ts, shared with the in-memory limiter. */
const toDecision = (
  reply: [string, number, number, number],
  limits: TakeRequest['limits'],
  now: number,
): RateLimitDecision => {
  const [kind, minuteLeft, dayLeft, ban] = reply
  const window: WindowState = {
    limits,
    minuteStart: Math.floor(now / MINUTE_MS) * MINUTE_MS,
    dayStart: Math.floor(now / DAY_MS) * DAY_MS,
    minuteLeft,
    dayLeft,
    banEndsAt: kind === 'banned' || (kind === 'peek' && ban >= 0) ? ban : undefined,
  }
  if (kind === 'allowed' || kind === 'peek')
    return { allowed: true, headers: describeWindow(window) }
  if (kind === 'banned')
    return {
      allowed: false,
      code: 'api_key_banned',
      retryAfterSeconds: retryAfterSeconds(ban, now),
      headers: describeWindow(window),
    }
  return {
    allowed: false,
    code: 'rate_limit_exceeded',
    retryAfterSeconds: retryAfterSeconds(windowEnd(now, kind as 'minute' | 'day'), now),
    headers: describeWindow(window),
  }
}

/**
 * Creates the Redis state and connects; rejects with a clear message when
 * Redis cannot be reached or holds a sandbox seeded differently under the
 * same prefix. Loaded only when the `store` option is given.
 *
 * @example
 * const state = await createRedisState({ url: 'redis://127.0.0.1:6379/0', events, baseKeys, startScenario: 'default' })
 */
export const createRedisState = async (options: RedisStateOptions): Promise<RedisState> => {
  const prefix = options.prefix ?? DEFAULT_REDIS_PREFIX
  const { events, baseKeys } = options
  const realNow = options.now ?? (() => Date.now())
  const ttl = options.sessionTtlMs ?? DEFAULT_SESSION_TTL_MS
  const max = options.maxSessions ?? DEFAULT_MAX_SESSIONS
  const seed = options.seed ?? DEFAULT_SEED
  const petCount = options.pets ?? DEFAULT_PET_COUNT
  const journalSize = options.journalSize ?? 500
  // This instance's own recent answers, for its dashboard's feed (the store holds the journals).
  const feedBudget = createJournalBudget({ maxEntries: 1_000, maxBytes: 8 * 1024 * 1024 })
  const feed = createJournal(1_000, feedBudget)
  const { banAfter, banMs } = resolveRateLimitOptions(options.rateLimit)
  const onError = options.onError ?? (() => {})
  let everConnected = false
  // Imported here, not at the top: a bundle (the CLI's) keeps it a dynamic import.
  const { Redis } = await import('ioredis')
  const redis = new Redis(options.url, {
    lazyConnect: true,
    // Fail fast while disconnected (503), never queue: a queued create could
    // run long after its client gave up, or twice.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
    connectTimeout: 2_000,
    // Reconnect forever once connected (recovery by itself); not at start (exit 1).
    retryStrategy: (times) => (everConnected ? Math.min(times * 100, 1_000) : null),
  })
  // Connection errors are answered as 503s; ioredis would log them otherwise.
  redis.on('error', () => {})

  const scripts = new Map<string, string>()
  const run = async (lua: string, args: (string | number)[]): Promise<unknown> => {
    let sha = scripts.get(lua)
    if (sha === undefined) {
      sha = createHash('sha1').update(lua).digest('hex')
      scripts.set(lua, sha)
    }
    try {
      try {
        return await redis.evalsha(sha, 0, prefix, ...args)
      } catch (error) {
        if (!(isReplyError(error) && /^NOSCRIPT/.test(error.message))) throw error
        return await redis.eval(lua, 0, prefix, ...args)
      }
    } catch (error) {
      throw toStoreError(error)
    }
  }

  const emit = <K extends keyof SandboxEvents>(type: K, event: SandboxEvents[K]): void => {
    events.emit(type, event).catch(onError)
  }

  // ---- the seeded pets and the scenario stores: computed here, the same in every instance ----
  const seeded: Pet[] = seedPets({ seed, count: petCount }).map((pet, i) => ({ id: i + 1, ...pet }))
  const storeContext = { seededPets: (count = petCount) => seedPets({ seed, count }) }
  const bases = new Map<string, Promise<Pet[]>>([['default', Promise.resolve(seeded)]])
  const baseOf = (name: string, scenario: Scenario): Promise<Pet[]> => {
    let base = bases.get(name)
    if (base === undefined && scenario.store !== undefined) {
      const pets = scenario.store(storeContext)
      // Validated and numbered as the in-memory state builds a scenario store.
      base = (async () => {
        const store = new PetStore()
        for (const pet of pets) await store.create(toNewPet(pet))
        return store.list({ limit: store.count }).pets
      })()
      base.catch(() => bases.delete(name))
      bases.set(name, base)
    }
    return base ?? Promise.resolve(seeded)
  }

  // ---- the instance's cache ----
  const cache = new Map<string, CachedSession>()
  let keyIndex = new Map<string, string>()
  let keyIndexVersion = '-'

  const applyIndex = (kv: string, index: string[] | null): void => {
    if (index === null) return
    keyIndex = new Map()
    for (let i = 0; i < index.length; i += 2)
      keyIndex.set(index[i] as string, index[i + 1] as string)
    keyIndexVersion = kv
  }

  /** Takes a fresh look in; false when the session is gone. */
  const apply = (sid: string, reply: LoadReply): boolean => {
    applyIndex(reply[1], reply[2])
    if (reply[0] === 'missing') {
      cache.delete(sid)
      return false
    }
    const [, , , v, sticky, frozen, epoch, pv, keys, revoked] = reply
    const old = cache.get(sid)
    const runtime = new Map<string, ApiKeyInfo & { n: number }>()
    for (let i = 0; i < keys.length; i += 2) {
      const value = keys[i + 1] as string
      const space = value.indexOf(' ')
      runtime.set(keys[i] as string, {
        ...(JSON.parse(value.slice(space + 1)) as ApiKeyInfo),
        n: Number(value.slice(0, space)),
      })
    }
    const fresh = old === undefined || old.epoch !== epoch
    cache.set(sid, {
      v,
      sticky,
      frozen: frozen === '' ? undefined : Number(frozen),
      epoch,
      pv,
      runtime,
      revoked: new Set(revoked),
      stores: fresh ? new Map() : old.stores,
      refreshing: fresh ? new Map() : old.refreshing,
      streams: fresh ? new Map() : old.streams,
    })
    return true
  }

  const open = async (sid: string, owner = ''): Promise<CachedSession> => {
    const reply = (await run(OPEN_SCRIPT, [
      sid,
      realNow(),
      ttl,
      max,
      options.startScenario,
      keyIndexVersion,
      owner,
    ])) as [number, string[], LoadReply] | ['limit']
    if (reply[0] === 'limit')
      throw new ApiError(
        'session_limit_reached',
        `No session can be created: the limit is ${max} sessions, default included. Raise --max-sessions or drop a session.`,
        { headers: { 'Retry-After': '1' } },
      )
    const [created, dropped, load] = reply
    forgetDropped(dropped)
    apply(sid, load)
    if (created === 1 && sid !== DEFAULT_SESSION) emit('session', { session: sid, type: 'create' })
    return cache.get(sid) as CachedSession
  }

  const forgetDropped = (dropped: string[]): void => {
    for (const id of dropped) {
      cache.delete(id)
      emit('session', { session: id, type: 'drop' })
    }
  }

  /** The control API's reads: a fresh look (the session is re-created if it was dropped). */
  const refresh = async (sid: string): Promise<CachedSession> => {
    const reply = (await run(LOAD_SCRIPT, [sid, keyIndexVersion])) as LoadReply
    if (!apply(sid, reply)) return open(sid)
    return cache.get(sid) as CachedSession
  }

  /** A control mutation; the reply refreshes the cache. */
  const control = async (sid: string, op: string, ...args: (string | number)[]) => {
    let reply = (await run(CONTROL_SCRIPT, [sid, op, ...args, keyIndexVersion])) as [
      string,
      LoadReply | null,
    ]
    if (reply[0] === 'missing') {
      await open(sid)
      reply = (await run(CONTROL_SCRIPT, [sid, op, ...args, keyIndexVersion])) as [
        string,
        LoadReply | null,
      ]
    }
    if (reply[1] !== null) apply(sid, reply[1])
    return reply[0]
  }

  const lookup = (entry: CachedSession, key: string): ApiKeyInfo | undefined => {
    const runtime = entry.runtime.get(key)
    if (runtime !== undefined) {
      const { n: _n, ...info } = runtime
      return info
    }
    return entry.revoked.has(key) ? undefined : baseKeys.get(key)
  }

  const entryOf = (sid: string): CachedSession => {
    const entry = cache.get(sid)
    if (entry === undefined) throw new StaleStateError()
    return entry
  }

  /** Brings a cached store up to the session's pets version (one LRANGE, only after creates). */
  const syncStore = async (
    sid: string,
    entry: CachedSession,
    name: string,
    pets: CachedPets,
    version: string | undefined,
  ): Promise<void> => {
    while (version === undefined || pets.version !== version) {
      const pending = entry.refreshing.get(name)
      if (pending !== undefined) {
        await pending
        if (version === undefined) return
        continue
      }
      const reading = (async () => {
        const rows = (await run(STORE_RANGE_SCRIPT, [sid, name, pets.created])) as string[]
        pets.append(rows.map((row) => JSON.parse(row) as Pet))
        pets.version = version
      })()
      entry.refreshing.set(name, reading)
      try {
        await reading
      } finally {
        entry.refreshing.delete(name)
      }
      if (version === undefined) return
    }
  }

  /**
   * One session as one request (or one control call) sees it. In a request
   * (the pipeline calls `ready()` or `now()` first) reads come from the
   * instance's cache and the request's one round trip, `take`, checks them;
   * otherwise (the control API) every read is a fresh look into Redis.
   */
  const view = (sid: string): SessionState => {
    let inRequest = false
    let pv: string | undefined
    let seq: number | undefined
    const cached = (): CachedSession => entryOf(sid)
    const current = async (): Promise<CachedSession> => (inRequest ? cached() : refresh(sid))

    const count = async (
      request: TakeRequest | (Omit<TakeRequest, 'bannable'> & { bannable?: undefined }),
      mode: 'take' | 'peek',
    ) => {
      const entry = cached()
      const reply = (await run(TAKE_SCRIPT, [
        sid,
        entry.v,
        keyIndexVersion,
        realNow(),
        ttl,
        request.bucket,
        request.limits.perMinute,
        request.limits.perDay,
        request.now,
        request.bannable === true ? 1 : 0,
        banAfter === Number.POSITIVE_INFINITY ? -1 : banAfter,
        banEnd(request.now, banMs),
        mode,
      ])) as ['stale', LoadReply] | ['ok', string, number, number, number, number, string, string[]]
      if (reply[0] === 'stale') {
        // Refreshed (or forgotten, when the session is gone: the retry opens it
        // again only if the request still selects it).
        apply(sid, reply[1])
        throw new StaleStateError()
      }
      const [, kind, minuteLeft, dayLeft, ban, reserved, version, dropped] = reply
      forgetDropped(dropped)
      pv = version
      seq = reserved
      return toDecision([kind, minuteLeft, dayLeft, ban], request.limits, request.now)
    }

    // Reads bring the copy up to date first (one LRANGE, only after creates);
    // a create does not need it.
    const records = (entry: CachedSession, name: string, pets: CachedPets): PetRecords => ({
      async get(id) {
        await syncStore(sid, entry, name, pets, pv)
        return pets.get(id)
      },
      async list(query) {
        await syncStore(sid, entry, name, pets, pv)
        return pets.list(query)
      },
      async create(newPet) {
        const base = await baseOf(name, { name } as Scenario)
        const id = (await run(CREATE_SCRIPT, [
          sid,
          name,
          name === 'default' ? seeded.length : base.length,
          JSON.stringify(newPet).slice(1),
          Number.MAX_SAFE_INTEGER,
        ])) as number
        if (id === 0) throw new StaleStateError()
        if (id === -1) throw new IdSpaceExhaustedError()
        const pet: Pet = { id, ...newPet }
        await events
          .emit('change', { session: sid, store: name, type: 'create', pet })
          .catch(onError)
        return pet
      },
    })

    return {
      id: sid,
      ready() {
        inRequest = true
        return Promise.resolve()
      },
      now() {
        inRequest = true
        return cached().frozen ?? realNow()
      },
      lookupKey: (key) => lookup(cached(), key),
      take: (request) => count(request, 'take'),
      peek: async (request) => ({ headers: (await count(request, 'peek')).headers }),
      async sticky() {
        return (await current()).sticky
      },
      async store(scenario) {
        const entry = cached()
        const name = scenario.store === undefined ? 'default' : scenario.name
        let pets = entry.stores.get(name)
        if (pets === undefined) {
          pets = new CachedPets(await baseOf(name, scenario))
          // Another request may have built it meanwhile.
          pets = entry.stores.get(name) ?? pets
          entry.stores.set(name, pets)
        }
        return records(entry, name, pets)
      },
      random(scenario) {
        const entry = cached()
        let stream = entry.streams.get(scenario.name)
        if (stream === undefined) {
          stream = createSeededRandom(scenario.seed ?? seed, scenario.name)
          entry.streams.set(scenario.name, stream)
        }
        return stream()
      },
      async record(capture) {
        let number = seq
        seq = undefined
        if (number === undefined) {
          number = Number(await run(NEXT_SEQ_SCRIPT, [sid]).catch(() => 0))
        }
        const record = feed.record(capture)
        record.seq = number
        if (number > 0 && journalSize > 0) {
          // Written behind the answer: a journal entry is not worth a round trip
          // (and a lost one, while Redis is down, is no lost data).
          const stored: JournalEntry = toJournalEntry(record)
          run(RECORD_SCRIPT, [sid, number, JSON.stringify(stored), journalSize]).catch(() => {})
        }
        return record
      },
      async setSticky(name) {
        await control(sid, 'sticky', name)
        emit('scenario', { session: sid, name })
      },
      async clock() {
        const entry = await refresh(sid)
        return { now: entry.frozen ?? realNow(), frozen: entry.frozen !== undefined }
      },
      async setClock(time) {
        const clock = createClock({ source: realNow })
        clock.set(time)
        await control(sid, 'clock', clock.now())
        emit('clock', { session: sid, now: clock.now(), frozen: true })
      },
      async advanceClock(ms) {
        createClock({ source: realNow }).advance(ms)
        await control(sid, 'advance', ms, realNow())
        const entry = cached()
        emit('clock', { session: sid, now: entry.frozen ?? realNow(), frozen: true })
      },
      async useRealTime() {
        await control(sid, 'clock', '')
        emit('clock', { session: sid, now: realNow(), frozen: false })
      },
      async createKey(keyOptions: CreateKeyOptions) {
        // Checks the options and draws a key as the in-memory registry does.
        const info = createKeyRegistry(new Map(), { session: sid, index: new Map() }).create(
          keyOptions,
        )
        const result = await control(
          sid,
          'create-key',
          info.key,
          JSON.stringify(info),
          baseKeys.has(info.key) ? 1 : 0,
        )
        if (result === 'exists')
          throw new KeyExistsError(
            `Failed to create key "${info.key}": it exists already. Revoke it first or choose another.`,
          )
        emit('keys', { session: sid, type: 'create', key: info })
        return info
      },
      async revokeKey(key) {
        const result = await control(sid, 'revoke-key', key, baseKeys.has(key) ? 1 : 0)
        if (result === 'none') return false
        const info =
          result === 'base'
            ? (baseKeys.get(key) as ApiKeyInfo)
            : (JSON.parse(result.slice(result.indexOf(' ') + 1)) as ApiKeyInfo)
        emit('keys', { session: sid, type: 'revoke', key: info })
        return true
      },
      async listKeys() {
        const entry = await refresh(sid)
        const runtime = [...entry.runtime.values()]
          .sort((a, b) => a.n - b.n)
          .map(({ n: _n, ...info }) => info)
        return [...[...baseKeys.values()].filter((k) => !entry.revoked.has(k.key)), ...runtime]
      },
      async listJournal() {
        const rows = (await run(JOURNAL_SCRIPT, [sid])) as string[]
        return rows.map((row) => JSON.parse(row) as JournalEntry)
      },
      async clearJournal() {
        await control(sid, 'clear-journal')
      },
      async petCount() {
        const rows = (await run(STORE_RANGE_SCRIPT, [sid, 'default', 0])) as string[]
        return seeded.length + rows.length
      },
      async reset() {
        await control(sid, 'reset', options.startScenario)
        await events.emit('reset', { session: sid }).catch(onError)
      },
    }
  }

  // ---- start: connect, check the sandbox's fingerprint, open `default` ----
  try {
    await redis.connect()
  } catch (error) {
    redis.disconnect()
    throw new Error(
      `the Redis store ${redactUrl(options.url)} cannot be reached (${error instanceof Error ? error.message : String(error)}). Start Redis or fix --store.`,
    )
  }
  everConnected = true
  try {
    const fingerprint = createHash('sha1')
      .update(JSON.stringify({ seed, pets: seeded }))
      .digest('hex')
    const current = await run(CONFIG_SCRIPT, [fingerprint])
    if (current !== fingerprint)
      throw new Error(
        `the Redis store ${redactUrl(options.url)} holds, under the prefix "${prefix}", a sandbox with other seeded pets (another --seed or --pets). Start every instance with the same --seed and --pets, or choose another database or --store-prefix.`,
      )
    await open(DEFAULT_SESSION)
  } catch (error) {
    redis.disconnect()
    throw error instanceof ApiError
      ? new Error(`the Redis store ${redactUrl(options.url)} failed: ${error.message}`)
      : error
  }

  return {
    redis,
    prefix,
    events,
    keySession: (key) => keyIndex.get(key),
    recentRequests(cursor, max) {
      const after = cursor === undefined ? 0 : Number(cursor)
      const recent = feedBudget.recent(Number.isSafeInteger(after) && after > 0 ? after : 0, max)
      return {
        entries: recent.records.map(toJournalEntry),
        cursor: String(recent.cursor),
        skipped: cursor === undefined ? 0 : recent.skipped,
      }
    },
    async findKey(id, key) {
      // Neither a demo or option key nor a run-time key: valid nowhere, no round trip.
      if (!baseKeys.has(key) && !keyIndex.has(key)) return undefined
      let entry = cache.get(id)
      if (entry === undefined) {
        // A fresh look that neither opens nor touches the session (decision 0026).
        const reply = (await run(LOAD_SCRIPT, [id, keyIndexVersion])) as LoadReply
        if (!apply(id, reply)) return baseKeys.get(key)
        entry = cache.get(id) as CachedSession
      }
      return lookup(entry, key)
    },
    async session(id, owner) {
      if (!cache.has(id)) await open(id, owner)
      return view(id)
    },
    async listSessions(): Promise<SessionSummary[]> {
      const rows = (await run(SESSIONS_SCRIPT, [])) as [string, string, string, number, number][]
      const summaries = rows.map(([id, lastUsed, scenario, created, requests]) => ({
        id,
        pets: seeded.length + created,
        scenario,
        requests: Math.min(requests, journalSize),
        lastUsed: new Date(Number(lastUsed)).toISOString(),
      }))
      const first = summaries.filter((s) => s.id === DEFAULT_SESSION)
      return [...first, ...summaries.filter((s) => s.id !== DEFAULT_SESSION)]
    },
    async dropSession(id) {
      if (id === DEFAULT_SESSION) return false
      const reply = (await run(CONTROL_SCRIPT, [id, 'drop', keyIndexVersion])) as [string]
      cache.delete(id)
      if (reply[0] === 'missing') return false
      emit('session', { session: id, type: 'drop' })
      return true
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect())
    },
    peek(id) {
      const entry = cache.get(id)
      if (entry === undefined) return undefined
      const runtime = [...entry.runtime.values()]
        .sort((a, b) => a.n - b.n)
        .map(({ n: _n, ...info }) => info)
      return {
        sticky: entry.sticky,
        frozen: entry.frozen,
        keys: [...[...baseKeys.values()].filter((k) => !entry.revoked.has(k.key)), ...runtime],
        pets: entry.stores.get('default'),
      }
    },
  }
}

/** The store's address without a password, for messages. */
export const redactUrl = (url: string): string => url.replace(/\/\/[^@/]*@/, '//***@')

/** The limiter alone, on one Redis hash: what the limiter's unit tests drive. */
export const createRedisLimiter = (redis: Redis, hash: string, options: RateLimitOptions = {}) => {
  const { banAfter, banMs } = resolveRateLimitOptions(options)
  const sha = createHash('sha1').update(LIMIT_SCRIPT).digest('hex')
  const call = async (args: (string | number)[]) => {
    try {
      return await redis.evalsha(sha, 0, '', hash, ...args)
    } catch {
      return await redis.eval(LIMIT_SCRIPT, 0, '', hash, ...args)
    }
  }
  return {
    async take(request: TakeRequest): Promise<RateLimitDecision> {
      const reply = (await call([
        request.bucket,
        request.limits.perMinute,
        request.limits.perDay,
        request.now,
        request.bannable ? 1 : 0,
        banAfter === Number.POSITIVE_INFINITY ? -1 : banAfter,
        banEnd(request.now, banMs),
        'take',
      ])) as [string, number, number, number]
      return toDecision(reply, request.limits, request.now)
    },
    async peek(request: Omit<TakeRequest, 'bannable'>) {
      const reply = (await call([
        request.bucket,
        request.limits.perMinute,
        request.limits.perDay,
        request.now,
        0,
        -1,
        0,
        'peek',
      ])) as [string, number, number, number]
      return { headers: toDecision(reply, request.limits, request.now).headers }
    },
    async reset() {
      await redis.del(hash)
    },
  }
}
