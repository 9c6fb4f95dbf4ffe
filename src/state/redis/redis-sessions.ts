import { randomUUID } from 'node:crypto'
import type { ApiKeyInfo } from '../../auth/key-registry.js'
import { type Sticky, startSticky } from '../../scenarios/timeline.js'
import { DEFAULT_SESSION, type SessionSummary } from '../sandbox-state.js'
import { StaleStateError } from '../stale-state.js'
import type { CachedPets } from './cached-pets.js'
import { PRELUDE, sessionKey } from './lua-prelude.js'
import { createRedisRegistry, foreignStore, type RedisRegistry } from './redis-registry.js'
import { defineScript } from './redis-script.js'
import { listRedisSessions } from './redis-session-list.js'
import type { RedisStateContext } from './redis-state-context.js'
import { decodeSticky, encodeSticky } from './redis-timeline-start.js'

/** What an instance holds of one session: read from Redis, checked by every request's one round trip. */
export interface CachedSession {
  /** `epoch/v`: what `take` compares. */
  version: string
  sticky: Sticky
  /** The sticky as stored (what a reply is compared with). */
  stickyText: string
  frozen: number | undefined
  epoch: string
  pv: string
  runtime: Map<string, ApiKeyInfo & { n: number }>
  revoked: Set<string>
  stores: Map<string, CachedPets>
  /** Store refreshes in flight, one per store. */
  refreshing: Map<string, Promise<void>>
  /** Timelines started by their first request, as far as this instance has asked (until the next epoch). */
  starts: Map<string, number>
}

/** A session as the `load` step of the scripts returns it. */
export type LoadReply =
  | ['missing']
  | ['ok', string, string, string, string, string, string, string[], string[]]

/**
 * Creates a session from the seed when it does not exist (a new epoch), marks
 * it used, and loads it. ARGV: prefix, sid, newEpoch, startScenario, fingerprint, realNow.
 * Returns {created, load}.
 */
const INIT_SCRIPT = defineScript(
  'init',
  `${PRELUDE}
local created = 0
if redis.call('EXISTS', META) == 0 then
  redis.call('HSET', META, 'epoch', ARGV[3], 'v', 1, 'sticky', ARGV[4], 'frozen', '', 'pv', 0,
    'jseq', 0, 'jcleared', 0, 'rn', 0, 'kn', 0, 'used', ARGV[6], 'fp', ARGV[5])
  created = 1
else
  redis.call('HSET', META, 'used', ARGV[6])
end
return {created, load()}
`,
)

/** A fresh look at a session (the control API's reads). ARGV: prefix, sid. */
const LOAD_SCRIPT = defineScript(
  'load',
  `${PRELUDE}
return load()
`,
)

/**
 * The control changes, one script: ARGV: prefix, sid, op, args… Every change
 * gives the session a new version, so every instance's cache of it is found
 * stale by its next request; a reset draws a new epoch (the instances' copies
 * of its pets go). Returns {result, load, removedRuntimeKeys}.
 */
const CONTROL_SCRIPT = defineScript(
  'control',
  `${PRELUDE}
local op = ARGV[3]
if redis.call('EXISTS', META) == 0 then return {'missing', {'missing'}, {}} end
local result, removed = 'ok', {}
if op == 'sticky' then
  redis.call('HSET', META, 'sticky', ARGV[4])
elseif op == 'clock' then
  redis.call('HSET', META, 'frozen', ARGV[4])
elseif op == 'advance' then
  local frozen = redis.call('HGET', META, 'frozen')
  local base = tonumber(ARGV[5])
  if frozen and frozen ~= '' then base = tonumber(frozen) end
  redis.call('HSET', META, 'frozen', num(base + tonumber(ARGV[4])))
elseif op == 'create-key' then
  -- ARGV: key, info json (the key index, in the registry, was claimed first)
  if redis.call('HEXISTS', T .. 'keys', ARGV[4]) == 1 then return {'exists', load(), {}} end
  local n = redis.call('HINCRBY', META, 'kn', 1)
  redis.call('HSET', T .. 'keys', ARGV[4], num(n) .. ' ' .. ARGV[5])
elseif op == 'revoke-key' then
  -- ARGV: key, isBaseKey
  local runtime = redis.call('HGET', T .. 'keys', ARGV[4])
  if runtime then
    redis.call('HDEL', T .. 'keys', ARGV[4])
    result = runtime
    removed = {ARGV[4]}
  elseif ARGV[5] == '1' and redis.call('SADD', T .. 'revoked', ARGV[4]) == 1 then
    result = 'base'
  else
    return {'none', load(), {}}
  end
elseif op == 'reset' then
  -- ARGV: startScenario, newEpoch
  removed = clear()
  redis.call('HSET', META, 'sticky', ARGV[4], 'frozen', '', 'epoch', ARGV[5], 'v', 0,
    'jcleared', redis.call('HGET', META, 'jseq'), 'rn', 0)
  redis.call('HINCRBY', META, 'pv', 1)
elseif op == 'clear-journal' then
  redis.call('HSET', META, 'jcleared', redis.call('HGET', META, 'jseq'))
  redis.call('DEL', T .. 'journal')
  return {'ok', false, {}}
end
redis.call('HINCRBY', META, 'v', 1)
return {result, load(), removed}
`,
)

/**
 * Drops a session with everything in it; with idleBefore, only when it was not
 * used since. ARGV: prefix, sid, idleBefore ('' for always).
 * Returns {'missing'} | {'busy', used} | {'ok', runtimeKeys}.
 */
const DROP_SCRIPT = defineScript(
  'drop',
  `${PRELUDE}
local used = redis.call('HGET', META, 'used')
if not used then return {'missing'} end
if ARGV[3] ~= '' and tonumber(used) > tonumber(ARGV[3]) then return {'busy', used} end
local keys = clear()
redis.call('DEL', META)
return {'ok', keys}
`,
)

/** The instance's cache of sessions and of the key index, and the scripts that keep it current. */
export interface RedisSessions {
  readonly registry: RedisRegistry
  /** The session a run-time key is bound to: the instance's index, else the registry (unknown keys only). */
  keySession(key: string): string | undefined | Promise<string | undefined>
  /** Remembers that a run-time key belongs to a session. */
  bind(key: string, sid: string): void
  cached(sid: string): CachedSession | undefined
  /** The cached session of a request; a StaleStateError when it is gone (the retry opens it). */
  entryOf(sid: string): CachedSession
  /** Takes a fresh look in; false when the session is gone. Throws 503 for a session seeded otherwise. */
  apply(sid: string, reply: LoadReply): boolean
  /**
   * Creates (from the seed; owned by `owner`) or marks used, and loads; past
   * the limit the biggest holder's least recently used session goes
   * (decision 0026), or 503 session_limit_reached when none can.
   */
  open(sid: string, owner?: string): Promise<CachedSession>
  /** Loads a session into the cache if it exists, neither opening nor touching it; false when there is none. */
  load(sid: string): Promise<boolean>
  /**
   * A key as that session sees it, without opening or touching it (decision
   * 0026): a base key valid in the instance's copy, or a run-time key there,
   * costs no round trip; a key the copy refuses but that may have become valid
   * (a revoked base key, a key bound there) is looked at again, fresh.
   */
  findKey(sid: string, key: string): ApiKeyInfo | undefined | Promise<ApiKeyInfo | undefined>
  /** The control API's reads: a fresh look (the session is re-created if it was dropped). */
  refresh(sid: string): Promise<CachedSession>
  /** A control change; the reply refreshes the cache. Returns the script's result. */
  control(sid: string, op: string, ...args: (string | number)[]): Promise<string>
  /** A key as the cached session sees it (revocations are per session). */
  lookup(entry: CachedSession, key: string): ApiKeyInfo | undefined
  /** Base keys not revoked, then run-time keys in creation order. */
  keysOf(entry: CachedSession): ApiKeyInfo[]
  list(): Promise<SessionSummary[]>
  drop(sid: string): Promise<boolean>
}

/**
 * The sessions of the Redis state: the instance's cache of them (version,
 * sticky scenario, frozen clock, keys and revocations), brought up to date by
 * every script's reply, and the key index (key → session) as far as this
 * instance has needed it. Sessions live in slots of their own; the registry
 * (redis-registry.ts) lists them.
 *
 * @example
 * const sessions = createRedisSessions(ctx)
 * await sessions.open('default')
 */
export const createRedisSessions = (ctx: RedisStateContext): RedisSessions => {
  const { connection, baseKeys } = ctx
  const cache = new Map<string, CachedSession>()
  const bindings = new Map<string, string>()
  const boundTo = new Map<string, Set<string>>()
  const keyOf = (sid: string) => sessionKey(connection.prefix, sid)

  const bind = (key: string, sid: string): void => {
    const previous = bindings.get(key)
    if (previous !== undefined) boundTo.get(previous)?.delete(key)
    bindings.set(key, sid)
    let keys = boundTo.get(sid)
    if (keys === undefined) {
      keys = new Set()
      boundTo.set(sid, keys)
    }
    keys.add(key)
  }
  const forget = (sid: string): void => {
    cache.delete(sid)
    for (const key of boundTo.get(sid) ?? []) bindings.delete(key)
    boundTo.delete(sid)
  }

  const apply = (sid: string, reply: LoadReply): boolean => {
    if (reply[0] === 'missing') {
      forget(sid)
      return false
    }
    const [, version, sticky, frozen, epoch, pv, fp, keys, revoked] = reply
    if (fp !== ctx.fingerprint) {
      forget(sid)
      throw foreignStore()
    }
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
    // The index follows the session: its keys are bound here, others no longer.
    for (const key of [...(boundTo.get(sid) ?? [])])
      if (!runtime.has(key)) {
        bindings.delete(key)
        boundTo.get(sid)?.delete(key)
      }
    for (const key of runtime.keys()) bind(key, sid)
    const fresh = old === undefined || old.epoch !== epoch
    cache.set(sid, {
      version,
      // The same text as last time: the same value (a timeline is parsed once per change).
      sticky: old !== undefined && old.stickyText === sticky ? old.sticky : decodeSticky(sticky),
      stickyText: sticky,
      frozen: frozen === '' ? undefined : Number(frozen),
      epoch,
      pv,
      runtime,
      revoked: new Set(revoked),
      stores: fresh ? new Map() : old.stores,
      refreshing: fresh ? new Map() : old.refreshing,
      starts: fresh ? new Map() : old.starts,
    })
    return true
  }

  /** Drops a session's data (a victim: always; an idle one: unless used since). */
  const dropData = async (sid: string, idleBefore: number | undefined): Promise<boolean> => {
    const reply = (await connection.write(DROP_SCRIPT, keyOf(sid), [
      sid,
      idleBefore === undefined ? '' : idleBefore,
    ])) as ['missing'] | ['busy', string] | ['ok', string[]]
    if (reply[0] === 'busy') {
      registry.touch(sid, Number(reply[1]))
      return false
    }
    await registry.release(sid, reply[0] === 'ok' ? reply[1] : [], true)
    const known = cache.has(sid)
    forget(sid)
    if (reply[0] === 'ok' || known) ctx.emit('session', { session: sid, type: 'drop' })
    return reply[0] === 'ok'
  }

  const registry = createRedisRegistry(ctx, {
    onIdle: (sid) => {
      dropData(sid, ctx.realNow() - ctx.sessionTtlMs).catch(() => {})
    },
    // The store lost its data: every cached session goes (their epochs are gone too).
    onLost: () => {
      for (const sid of [...cache.keys()]) forget(sid)
    },
  })

  const open = async (sid: string, owner?: string): Promise<CachedSession> => {
    const { victim } = await registry.open(sid, owner)
    if (victim !== undefined) await dropData(victim, undefined)
    const [created, load] = (await connection.write(INIT_SCRIPT, keyOf(sid), [
      sid,
      randomUUID(),
      encodeSticky(startSticky(ctx.startScenario, ctx.startTimeline, ctx.realNow())),
      ctx.fingerprint,
      ctx.realNow(),
    ])) as [number, LoadReply]
    apply(sid, load)
    if (created === 1 && sid !== DEFAULT_SESSION)
      ctx.emit('session', { session: sid, type: 'create' })
    const entry = cache.get(sid)
    if (entry === undefined) throw new StaleStateError()
    return entry
  }

  const refresh = async (sid: string): Promise<CachedSession> => {
    const reply = (await connection.run(LOAD_SCRIPT, keyOf(sid), [sid])) as LoadReply
    if (!apply(sid, reply)) return open(sid)
    return cache.get(sid) as CachedSession
  }

  const control = async (sid: string, op: string, ...args: (string | number)[]) => {
    const send = () =>
      connection.write(CONTROL_SCRIPT, keyOf(sid), [sid, op, ...args]) as Promise<
        [string, LoadReply | null, string[]]
      >
    let reply = await send()
    if (reply[0] === 'missing') {
      await open(sid)
      reply = await send()
    }
    if (reply[1] !== null) apply(sid, reply[1])
    if (reply[2].length > 0) await registry.release(sid, reply[2], false)
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

  /** A fresh look that neither opens nor touches the session; a session not opened yet sees the base keys. */
  const lookFresh = async (sid: string, key: string): Promise<ApiKeyInfo | undefined> => {
    const reply = (await connection.run(LOAD_SCRIPT, keyOf(sid), [sid])) as LoadReply
    if (!apply(sid, reply)) return baseKeys.get(key)
    return lookup(cache.get(sid) as CachedSession, key)
  }

  const keysOf = (entry: CachedSession): ApiKeyInfo[] => {
    const runtime = [...entry.runtime.values()]
      .sort((a, b) => a.n - b.n)
      .map(({ n: _n, ...info }) => info)
    return [...[...baseKeys.values()].filter((k) => !entry.revoked.has(k.key)), ...runtime]
  }

  return {
    registry,
    keySession(key) {
      const sid = bindings.get(key)
      // A base key is never bound (no run-time key takes a base key's text):
      // only a key this instance does not know costs a look into the registry.
      if (sid !== undefined || baseKeys.has(key)) return sid
      return registry.lookup(key).then((found) => {
        if (found !== undefined) bind(key, found)
        return found
      })
    },
    bind,
    cached: (sid) => cache.get(sid),
    entryOf(sid) {
      const entry = cache.get(sid)
      if (entry === undefined) throw new StaleStateError()
      return entry
    },
    apply,
    open,
    async load(sid) {
      const reply = (await connection.run(LOAD_SCRIPT, keyOf(sid), [sid])) as LoadReply
      return apply(sid, reply)
    },
    refresh,
    control,
    lookup,
    findKey(sid, key) {
      // Neither a base key nor one bound to a session: valid nowhere, no round trip.
      if (!baseKeys.has(key) && bindings.get(key) !== sid) return undefined
      const entry = cache.get(sid)
      if (entry === undefined) return lookFresh(sid, key)
      // A refusal from the copy may be out of date (reset, key created elsewhere): look again.
      return lookup(entry, key) ?? lookFresh(sid, key)
    },
    keysOf,
    list: () => listRedisSessions(ctx, registry),
    async drop(sid) {
      if (sid === DEFAULT_SESSION) return false
      return dropData(sid, undefined)
    },
  }
}
