import type { ApiKeyInfo } from '../auth/key-registry.js'
import type { PetRecords } from '../db/pet-records.js'
import { ApiError } from '../http/api-error.js'
import type { SharedCollections } from '../openapi/openapi-records.js'
import type { RateLimitOptions } from '../rate-limit/rate-limit-options.js'
import type { StickyTimeline, Timeline } from '../scenarios/timeline.js'
import type { AccountStore } from './account-store.js'
import { createEmitter, type Emitter } from './emitter.js'
import type { SandboxEvents } from './sandbox-events.js'
import type { SandboxState } from './sandbox-state.js'

/**
 * The `store` option: where a sandbox keeps its sessions when not in this
 * process. A Redis URL (`redis://HOST:PORT/DB`, `rediss://` for TLS), a Redis
 * Cluster (`redis+cluster://HOST:PORT[,HOST:PORT…]`, `rediss+cluster://`), or
 * the URL with a key prefix, so that several sandboxes share one Redis.
 */
export type StoreOption =
  | string
  | {
      url: string
      prefix?: string
      /**
       * Longest wait for one Redis command, in ms (default 1,000): a request
       * waits at most this long for Redis before it is answered 503.
       */
      timeoutMs?: number
      /**
       * Longest an instance holds its journal entries before writing them, in
       * ms (default 1,000; 0 writes them in the turn that answered). Every read
       * of the journal first has every instance write what it holds, so this
       * changes only what a crash loses, not what a read finds (decision 0069).
       */
      journalFlushMs?: number
    }

/** A state kept outside the process: ready once connected, closed to disconnect. */
export interface SharedState extends SandboxState {
  /** Resolves once the store is connected and the `default` session loaded; rejects with a clear message otherwise. */
  readonly ready: Promise<void>
  close(): Promise<void>
  /** This instance's last known view of a session, without a round trip (for synchronous displays). */
  peek(id: string): LastKnownSession | undefined
  /** The OpenAPI document's records (the `openapi` option), kept per session in the store. */
  readonly collections: SharedCollections
  /**
   * The accounts (contract §22, decision 0061) kept in the store, so every
   * instance sees every account and key at once; undefined when this store
   * does not keep accounts (the server then refuses `--accounts` with it).
   */
  readonly accounts?: AccountStore | undefined
}

/** What an instance last saw of a session; it may be behind other instances. */
export interface LastKnownSession {
  sticky: string
  /** The sticky timeline, when the sticky scenario is one. */
  timeline: StickyTimeline | undefined
  frozen: number | undefined
  keys: ApiKeyInfo[]
  /** The session's own pets as last read (list/get/count), when this instance has read them. */
  pets: (Pick<PetRecords, 'get' | 'list'> & { readonly count: number }) | undefined
}

export interface SharedStateOptions {
  seed?: number | undefined
  pets?: number | undefined
  baseKeys: ReadonlyMap<string, ApiKeyInfo>
  rateLimit?: RateLimitOptions | undefined
  journalSize?: number | undefined
  journalMaxEntries?: number | undefined
  journalMaxBytes?: number | undefined
  now?: (() => number) | undefined
  startScenario: string
  /** The start scenario's timeline, when it is one: it runs from each session's start (or reset). */
  startTimeline?: Timeline | undefined
  sessionTtlMs?: number | undefined
  maxSessions?: number | undefined
  onError?: ((error: unknown) => void) | undefined
}

/**
 * Checks a `store` option; throws a TypeError naming what is wrong.
 *
 * @example
 * parseStoreOption('redis://127.0.0.1:6379/0') // { url: 'redis://127.0.0.1:6379/0', prefix: undefined, timeoutMs: undefined }
 */
export const parseStoreOption = (
  store: StoreOption,
): {
  url: string
  prefix: string | undefined
  timeoutMs: number | undefined
  journalFlushMs?: number | undefined
} => {
  const { url, prefix, timeoutMs, journalFlushMs } =
    typeof store === 'string'
      ? { url: store, prefix: undefined, timeoutMs: undefined, journalFlushMs: undefined }
      : store
  if (typeof url === 'string' && /^rediss?\+cluster:/.test(url)) {
    // A Redis Cluster: one or more of its nodes, host:port, comma-separated (no database).
    if (
      !/^rediss?\+cluster:\/\/(?:[^@/]*@)?[^/?#@,\s]+:[0-9]{1,5}(?:,[^/?#@,\s]+:[0-9]{1,5})*\/?$/.test(
        url,
      )
    )
      throw new TypeError(
        `Failed to create the sandbox: store "${url.replace(/\/\/[^@/]*@/, '//***@')}" is not a Redis Cluster URL. Use redis+cluster://HOST:PORT[,HOST:PORT…], e.g. redis+cluster://127.0.0.1:7000,127.0.0.1:7001.`,
      )
  } else {
    let parsed: URL | undefined
    try {
      parsed = new URL(url)
    } catch {
      parsed = undefined
    }
    if (parsed === undefined || !/^rediss?:$/.test(parsed.protocol) || parsed.hostname === '') {
      throw new TypeError(
        `Failed to create the sandbox: store "${String(url)}" is not a Redis URL. Use redis://HOST:PORT/DB, e.g. redis://127.0.0.1:6379/0, or redis+cluster://HOST:PORT[,HOST:PORT…] for a Redis Cluster.`,
      )
    }
    if (
      parsed.pathname !== '' &&
      parsed.pathname !== '/' &&
      !/^\/[0-9]{1,2}$/.test(parsed.pathname)
    ) {
      throw new TypeError(
        `Failed to create the sandbox: the database in store "${url}" must be a number (redis://HOST:PORT/0).`,
      )
    }
  }
  if (
    prefix !== undefined &&
    (typeof prefix !== 'string' || !/^[A-Za-z0-9._:-]{1,64}$/.test(prefix))
  ) {
    throw new TypeError(
      `Failed to create the sandbox: store prefix "${String(prefix)}" must be 1-64 characters of A-Z a-z 0-9 . _ : -.`,
    )
  }
  if (
    timeoutMs !== undefined &&
    !(Number.isInteger(timeoutMs) && timeoutMs >= 10 && timeoutMs <= 60_000)
  ) {
    throw new TypeError(
      `Failed to create the sandbox: store timeoutMs ${String(timeoutMs)} must be a whole number of ms from 10 to 60000.`,
    )
  }
  if (
    journalFlushMs !== undefined &&
    !(Number.isInteger(journalFlushMs) && journalFlushMs >= 0 && journalFlushMs <= 60_000)
  ) {
    throw new TypeError(
      `Failed to create the sandbox: store journalFlushMs ${String(journalFlushMs)} must be a whole number of ms from 0 to 60000.`,
    )
  }
  return journalFlushMs === undefined
    ? { url, prefix, timeoutMs }
    : { url, prefix, timeoutMs, journalFlushMs }
}

const unavailable = (): ApiError =>
  new ApiError(
    'service_unavailable',
    'The sandbox has not connected to its shared store (Redis). Retry in a moment.',
    { headers: { 'Retry-After': '1' } },
  )

/** Every method of the account seam, forwarded to the store once it is connected. */
const ACCOUNT_METHODS = [
  'createAccount',
  'accountByEmail',
  'account',
  'listAccounts',
  'countAccounts',
  'deleteAccount',
  'addKey',
  'listKeys',
  'key',
  'keyByHash',
  'expireKey',
  'touchKey',
  'addInvite',
  'takeInvite',
  'addLogin',
  'login',
  'dropLogin',
  'hit',
  'unhit',
] as const satisfies readonly (keyof AccountStore)[]

/**
 * Opens a shared state. The Redis code (and the client library) is imported
 * on demand, so a sandbox in memory never loads it; this module itself is
 * reached only from the server module (store-support.ts). Calls made before the connection is up wait for it.
 *
 * @example
 * const state = openSharedState('redis://127.0.0.1:6379/0', { baseKeys, startScenario: 'default' })
 * await state.ready
 */
export const openSharedState = (store: StoreOption, options: SharedStateOptions): SharedState => {
  const { url, prefix, timeoutMs, journalFlushMs } = parseStoreOption(store)
  const events: Emitter<SandboxEvents> = createEmitter<SandboxEvents>()
  let real: (SandboxState & Pick<SharedState, 'peek' | 'collections' | 'accounts'>) | undefined
  let close: () => Promise<void> = async () => {}
  const loading = import('./redis/create-redis-state.js').then(async ({ createRedisState }) => {
    const state = await createRedisState({
      ...options,
      url,
      prefix,
      events,
      commandTimeoutMs: timeoutMs,
      journalFlushMs,
    })
    real = state
    close = () => state.close()
  })
  // Surfaced through `ready`; a call made meanwhile answers 503.
  loading.catch(() => {})
  const get = async (): Promise<SandboxState> => {
    if (real !== undefined) return real
    await loading.catch(() => {
      throw unavailable()
    })
    return real as unknown as SandboxState
  }
  const loaded = async (): Promise<NonNullable<typeof real>> => {
    await get()
    return real as NonNullable<typeof real>
  }
  return {
    events,
    ready: loading,
    recentRequests: async (cursor, max) => (await get()).recentRequests(cursor, max),
    keySession: (key) =>
      real !== undefined ? real.keySession(key) : get().then((s) => s.keySession(key)),
    findKey: (id, key) =>
      real !== undefined ? real.findKey(id, key) : get().then((s) => s.findKey(id, key)),
    session: (id, owner) =>
      real !== undefined ? real.session(id, owner) : get().then((s) => s.session(id, owner)),
    openedSession: async (id) => (await get()).openedSession(id),
    listSessions: async () => (await get()).listSessions(),
    dropSession: async (id) => (await get()).dropSession(id),
    async close() {
      await loading.catch(() => {})
      await close()
    },
    peek: (id) => real?.peek(id),
    // The store's accounts (decision 0062): once connected, each call goes straight to it.
    accounts: Object.fromEntries(
      ACCOUNT_METHODS.map((name) => [
        name,
        (...args: unknown[]) => {
          const call = (store: AccountStore | undefined): unknown => {
            if (store === undefined) throw unavailable()
            return (store[name] as (...a: unknown[]) => unknown)(...args)
          }
          return real !== undefined ? call(real.accounts) : loaded().then((r) => call(r.accounts))
        },
      ]),
    ) as unknown as AccountStore,
    collections: {
      read: async (session, key) => (await loaded()).collections.read(session, key),
      take: async (session, key, next) => (await loaded()).collections.take(session, key, next),
      write: async (session, key, id, change) =>
        (await loaded()).collections.write(session, key, id, change),
    },
  }
}
