import type { ApiKeyInfo } from '../../auth/key-registry.js'
import { ApiError } from '../../http/api-error.js'
import { DEFAULT_SESSION, type SessionSummary } from '../sandbox-state.js'
import { StaleStateError } from '../stale-state.js'
import type { CachedPets } from './cached-pets.js'
import { PRELUDE } from './lua-prelude.js'
import { defineScript } from './redis-script.js'
import type { RedisStateContext } from './redis-state-context.js'

/** What an instance holds of one session: read from Redis, checked by every request's one round trip. */
export interface CachedSession {
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

/** A session as the `load` step of the scripts returns it, with the key index when it changed. */
export type LoadReply =
  | ['missing', string, string[] | null]
  | ['ok', string, string[] | null, string, string, string, string, string, string[], string[]]

/**
 * A session, created from the seed when it does not exist (dropping the least
 * recently used one past the limit), marked used, and loaded.
 * ARGV: prefix, sid, realNow, ttl, max, startScenario, cachedKeyIndexVersion.
 * Returns {created, droppedIds, load} or {'limit'}.
 */
const OPEN_SCRIPT = defineScript(
  'open',
  `${PRELUDE}
local sid, now, ttl, max = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local dropped = {}
if sid ~= 'default' then dropped = sweep(now, ttl) end
local created = 0
if redis.call('EXISTS', S(sid, 'meta')) == 0 then
  if sid ~= 'default' then
    local others = redis.call('ZCARD', Z)
    if redis.call('ZSCORE', Z, 'default') then others = others - 1 end
    if others + 1 >= max then
      local victim = false
      for _, id in ipairs(redis.call('ZRANGE', Z, 0, 1)) do
        if id ~= 'default' and not victim then victim = id end
      end
      if not victim then return {'limit'} end
      drop(victim)
      dropped[#dropped + 1] = victim
    end
  end
  local v = redis.call('INCR', P .. 'ver')
  redis.call('HSET', S(sid, 'meta'), 'v', v, 'sticky', ARGV[6], 'frozen', '', 'epoch', v, 'pv', 0, 'jseq', 0, 'jcleared', 0)
  created = 1
end
redis.call('ZADD', Z, now, sid)
return {created, dropped, load(sid, ARGV[7])}
`,
)

/** A fresh look at a session (the control API's reads). ARGV: prefix, sid, cachedKv. */
const LOAD_SCRIPT = defineScript(
  'load',
  `${PRELUDE}
return load(ARGV[2], ARGV[3])
`,
)

/**
 * The control mutations, one script: ARGV: prefix, sid, op, args…, cachedKv.
 * Every mutation gives the session a new version, so every instance's cache
 * of it is found stale by its next request. Returns {result, load}.
 */
const CONTROL_SCRIPT = defineScript(
  'control',
  `${PRELUDE}
local sid, op = ARGV[2], ARGV[3]
local meta = S(sid, 'meta')
local ckv = ARGV[#ARGV]
if redis.call('EXISTS', meta) == 0 then return {'missing', load(sid, ckv)} end
local result = 'ok'
if op == 'sticky' then
  redis.call('HSET', meta, 'sticky', ARGV[4])
elseif op == 'clock' then
  redis.call('HSET', meta, 'frozen', ARGV[4])
elseif op == 'advance' then
  local frozen = redis.call('HGET', meta, 'frozen')
  local base = tonumber(ARGV[5])
  if frozen and frozen ~= '' then base = tonumber(frozen) end
  redis.call('HSET', meta, 'frozen', num(base + tonumber(ARGV[4])))
elseif op == 'create-key' then
  -- ARGV: key, info json, isBaseKey
  local key = ARGV[4]
  if redis.call('HEXISTS', P .. 'keyindex', key) == 1 or redis.call('HEXISTS', S(sid, 'keys'), key) == 1
    or (ARGV[6] == '1' and redis.call('SISMEMBER', S(sid, 'revoked'), key) == 0) then
    return {'exists', load(sid, ckv)}
  end
  local n = redis.call('INCR', P .. 'ver')
  redis.call('HSET', S(sid, 'keys'), key, num(n) .. ' ' .. ARGV[5])
  redis.call('HSET', P .. 'keyindex', key, sid)
  redis.call('INCR', P .. 'keyindex:v')
elseif op == 'revoke-key' then
  -- ARGV: key, isBaseKey
  local key = ARGV[4]
  local runtime = redis.call('HGET', S(sid, 'keys'), key)
  if runtime then
    redis.call('HDEL', S(sid, 'keys'), key)
    redis.call('HDEL', P .. 'keyindex', key)
    redis.call('INCR', P .. 'keyindex:v')
    result = runtime
  elseif ARGV[5] == '1' and redis.call('SADD', S(sid, 'revoked'), key) == 1 then
    result = 'base'
  else
    return {'none', load(sid, ckv)}
  end
elseif op == 'reset' then
  clear(sid)
  local v = redis.call('INCR', P .. 'ver')
  redis.call('HSET', meta, 'sticky', ARGV[4], 'frozen', '', 'epoch', v,
    'jcleared', redis.call('HGET', meta, 'jseq'))
  redis.call('HINCRBY', meta, 'pv', 1)
elseif op == 'clear-journal' then
  redis.call('HSET', meta, 'jcleared', redis.call('HGET', meta, 'jseq'))
  redis.call('DEL', S(sid, 'journal'))
  return {'ok', false}
elseif op == 'drop' then
  drop(sid)
  return {'ok', false}
end
bump(sid)
return {result, load(sid, ckv)}
`,
)

/**
 * Every session, least recently used first: {id, lastUsed, sticky, createdPets, journalCount}.
 * ARGV: prefix.
 */
const SESSIONS_SCRIPT = defineScript(
  'sessions',
  `${PRELUDE}
local out = {}
local all = redis.call('ZRANGE', Z, 0, -1, 'WITHSCORES')
for i = 1, #all, 2 do
  local sid = all[i]
  local m = redis.call('HMGET', S(sid, 'meta'), 'sticky', 'jcleared')
  if m[1] then
    local count = redis.call('ZCOUNT', S(sid, 'journal'), '(' .. (m[2] or '0'), '+inf')
    out[#out + 1] = {sid, all[i + 1], m[1], redis.call('LLEN', S(sid, 'st:default')), count}
  end
end
return out
`,
)

/** The instance's cache of sessions and of the key index, and the scripts that keep it current. */
export interface RedisSessions {
  /** The key → session index as last read (run-time keys bound to a session). */
  keySession(key: string): string | undefined
  /** The version of the key index the cache holds. */
  readonly keyIndexVersion: string
  cached(sid: string): CachedSession | undefined
  /** The cached session of a request; a StaleStateError when it is gone (the retry opens it). */
  entryOf(sid: string): CachedSession
  /** Takes a fresh look in; false when the session is gone. */
  apply(sid: string, reply: LoadReply): boolean
  /** Creates (from the seed) or marks used, and loads; 503 session_limit_reached past the limit. */
  open(sid: string): Promise<CachedSession>
  /** The control API's reads: a fresh look (the session is re-created if it was dropped). */
  refresh(sid: string): Promise<CachedSession>
  /** A control mutation; the reply refreshes the cache. Returns the script's result. */
  control(sid: string, op: string, ...args: (string | number)[]): Promise<string>
  /** Sessions dropped by a sweep: forgotten here, and a `session` event each. */
  forgetDropped(dropped: string[]): void
  /** A key as the cached session sees it (revocations are per session). */
  lookup(entry: CachedSession, key: string): ApiKeyInfo | undefined
  /** Base keys not revoked, then run-time keys in creation order. */
  keysOf(entry: CachedSession): ApiKeyInfo[]
  list(): Promise<SessionSummary[]>
  drop(sid: string): Promise<boolean>
}

/**
 * The sessions of the Redis state: the instance's cache of them (version,
 * sticky scenario, frozen clock, keys and revocations) and the key index,
 * brought up to date by every script's reply.
 *
 * @example
 * const sessions = createRedisSessions(ctx)
 * await sessions.open('default')
 */
export const createRedisSessions = (ctx: RedisStateContext): RedisSessions => {
  const { connection, baseKeys } = ctx
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

  const forgetDropped = (dropped: string[]): void => {
    for (const id of dropped) {
      cache.delete(id)
      ctx.emit('session', { session: id, type: 'drop' })
    }
  }

  const open = async (sid: string): Promise<CachedSession> => {
    const reply = (await connection.run(OPEN_SCRIPT, [
      sid,
      ctx.realNow(),
      ctx.sessionTtlMs,
      ctx.maxSessions,
      ctx.startScenario,
      keyIndexVersion,
    ])) as [number, string[], LoadReply] | ['limit']
    if (reply[0] === 'limit')
      throw new ApiError(
        'session_limit_reached',
        `No session can be created: the limit is ${ctx.maxSessions} sessions, default included. Raise --max-sessions or drop a session.`,
        { headers: { 'Retry-After': '1' } },
      )
    const [created, dropped, load] = reply
    forgetDropped(dropped)
    apply(sid, load)
    if (created === 1 && sid !== DEFAULT_SESSION)
      ctx.emit('session', { session: sid, type: 'create' })
    return cache.get(sid) as CachedSession
  }

  const refresh = async (sid: string): Promise<CachedSession> => {
    const reply = (await connection.run(LOAD_SCRIPT, [sid, keyIndexVersion])) as LoadReply
    if (!apply(sid, reply)) return open(sid)
    return cache.get(sid) as CachedSession
  }

  const control = async (sid: string, op: string, ...args: (string | number)[]) => {
    const send = () =>
      connection.run(CONTROL_SCRIPT, [sid, op, ...args, keyIndexVersion]) as Promise<
        [string, LoadReply | null]
      >
    let reply = await send()
    if (reply[0] === 'missing') {
      await open(sid)
      reply = await send()
    }
    if (reply[1] !== null) apply(sid, reply[1])
    return reply[0]
  }

  const keysOf = (entry: CachedSession): ApiKeyInfo[] => {
    const runtime = [...entry.runtime.values()]
      .sort((a, b) => a.n - b.n)
      .map(({ n: _n, ...info }) => info)
    return [...[...baseKeys.values()].filter((k) => !entry.revoked.has(k.key)), ...runtime]
  }

  return {
    keySession: (key) => keyIndex.get(key),
    get keyIndexVersion() {
      return keyIndexVersion
    },
    cached: (sid) => cache.get(sid),
    entryOf(sid) {
      const entry = cache.get(sid)
      if (entry === undefined) throw new StaleStateError()
      return entry
    },
    apply,
    open,
    refresh,
    control,
    forgetDropped,
    lookup(entry, key) {
      const runtime = entry.runtime.get(key)
      if (runtime !== undefined) {
        const { n: _n, ...info } = runtime
        return info
      }
      return entry.revoked.has(key) ? undefined : baseKeys.get(key)
    },
    keysOf,
    async list() {
      const rows = (await connection.run(SESSIONS_SCRIPT, [])) as [
        string,
        string,
        string,
        number,
        number,
      ][]
      const summaries = rows.map(([id, lastUsed, scenario, created, requests]) => ({
        id,
        pets: ctx.petCount + created,
        scenario,
        requests: Math.min(requests, ctx.journalSize),
        lastUsed: new Date(Number(lastUsed)).toISOString(),
      }))
      const first = summaries.filter((s) => s.id === DEFAULT_SESSION)
      return [...first, ...summaries.filter((s) => s.id !== DEFAULT_SESSION)]
    },
    async drop(sid) {
      if (sid === DEFAULT_SESSION) return false
      const reply = (await connection.run(CONTROL_SCRIPT, [sid, 'drop', keyIndexVersion])) as [
        string,
      ]
      cache.delete(sid)
      if (reply[0] === 'missing') return false
      ctx.emit('session', { session: sid, type: 'drop' })
      return true
    },
  }
}
