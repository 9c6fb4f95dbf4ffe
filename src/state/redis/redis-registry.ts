import { randomUUID } from 'node:crypto'
import { ApiError } from '../../http/api-error.js'
import { defineScript } from './redis-script.js'
import type { RedisStateContext } from './redis-state-context.js'

/**
 * The registry's keys share the hash tag `{~}` (not a session id: `~` is not
 * allowed in one), so on a cluster they live in one slot apart from every
 * session: `sessions` (sorted set: id → last use, real time), `keys` (hash:
 * run-time key → its session), `config` (hash: `fp`, the seeded pets'
 * fingerprint; `id`, the store's identity, drawn when the registry is created,
 * so it never comes back with lost data), and who opened each session
 * (decision 0026): `owners` (hash: id → owner), `holders` (sorted set: owner →
 * sessions held), `o:<owner>` (sorted set: that owner's sessions by last use).
 */
const REGISTRY_PRELUDE = `
local P = ARGV[1]
local R = P .. '{~}:'
local Z, K, C = R .. 'sessions', R .. 'keys', R .. 'config'
local OW, H = R .. 'owners', R .. 'holders'
local function O(owner) return R .. 'o:' .. owner end
local function num(x) return string.format('%.0f', x) end

-- Takes a session out of the registry and out of its owner's count.
local function unregister(sid)
  redis.call('ZREM', Z, sid)
  local owner = redis.call('HGET', OW, sid)
  if owner then
    redis.call('HDEL', OW, sid)
    redis.call('ZREM', O(owner), sid)
    if tonumber(redis.call('ZINCRBY', H, -1, owner)) <= 0 then redis.call('ZREM', H, owner) end
  end
end

-- Marks a session used, in the order of all sessions and in its owner's.
local function touch(sid, now)
  redis.call('ZADD', Z, num(now), sid)
  local owner = redis.call('HGET', OW, sid)
  if owner then redis.call('ZADD', O(owner), num(now), sid) end
end

-- The session to drop for owner to open one at the limit: the least recently
-- used one of whoever holds the most, the opener counted with its new session
-- and chosen on a tie (as memory-state.ts does).
local function victim(owner)
  local mine = tonumber(redis.call('ZSCORE', H, owner) or '0') + 1
  local most = 0
  local top = redis.call('ZREVRANGE', H, 0, 1, 'WITHSCORES')
  for i = 1, #top, 2 do
    if top[i] ~= owner and most == 0 then most = tonumber(top[i + 1]) end
  end
  local candidates = {owner}
  if mine < most then candidates = redis.call('ZRANGEBYSCORE', H, most, most) end
  local best, bestAt = false, false
  for _, who in ipairs(candidates) do
    local oldest = redis.call('ZRANGE', O(who), 0, 0, 'WITHSCORES')
    if oldest[1] and (not bestAt or tonumber(oldest[2]) < bestAt) then
      best, bestAt = oldest[1], tonumber(oldest[2])
    end
  end
  if best then return best end
  -- Nobody holds more than one (or sessions from before owners): the least recently used.
  for _, id in ipairs(redis.call('ZRANGE', Z, 0, 2)) do
    if id ~= 'default' then return id end
  end
  return false
end
`

/**
 * Registers a session (mode `open`: created here when missing, making room past
 * the limit, owned by `owner`; `touch`: marks it used), claiming the store for
 * this fingerprint when it has none (a new or emptied store), and hands out
 * idle sessions. ARGV: prefix, sid ('' for none), mode, now, ttl, max,
 * fingerprint, newStoreId, owner ('' for the sandbox's own callers).
 * Returns {'foreign', storeId} | {'limit', storeId, idle, ''} | {'ok', storeId, idle, victim}.
 */
const REGISTER_SCRIPT = defineScript(
  'register',
  `${REGISTRY_PRELUDE}
local sid, mode, now, ttl, max = ARGV[2], ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local cfg = redis.call('HMGET', C, 'fp', 'id')
if not cfg[1] then
  redis.call('HSET', C, 'fp', ARGV[7], 'id', ARGV[8])
  cfg = {ARGV[7], ARGV[8]}
end
if cfg[1] ~= ARGV[7] then return {'foreign', cfg[2]} end
local idle = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', Z, '-inf', num(now - ttl), 'LIMIT', 0, 16)) do
  if id ~= 'default' and id ~= sid then
    unregister(id)
    idle[#idle + 1] = id
  end
end
local dropped = ''
if mode == 'open' and sid ~= 'default' and sid ~= '' and not redis.call('ZSCORE', Z, sid) then
  local owner = ARGV[9]
  local others = redis.call('ZCARD', Z)
  if redis.call('ZSCORE', Z, 'default') then others = others - 1 end
  if others + 1 >= max then
    local id = victim(owner)
    if not id then return {'limit', cfg[2], idle, ''} end
    unregister(id)
    dropped = id
  end
  redis.call('HSET', OW, sid, owner)
  redis.call('ZINCRBY', H, 1, owner)
end
if sid ~= '' then touch(sid, now) end
return {'ok', cfg[2], idle, dropped}
`,
)

/** The session a run-time key is bound to. ARGV: prefix, key. */
const LOOKUP_SCRIPT = defineScript(
  'lookup',
  `${REGISTRY_PRELUDE}
return redis.call('HGET', K, ARGV[2])
`,
)

/** Binds a key to a session unless another holds it. ARGV: prefix, key, sid. Returns 'ok' or 'exists'. */
const CLAIM_SCRIPT = defineScript(
  'claim',
  `${REGISTRY_PRELUDE}
local current = redis.call('HGET', K, ARGV[2])
if current and current ~= ARGV[3] then return 'exists' end
redis.call('HSET', K, ARGV[2], ARGV[3])
return 'ok'
`,
)

/**
 * Unbinds keys from a session (those still bound to it), and with forget=1
 * takes the session out of the registry. ARGV: prefix, sid, forget, keys…
 */
const RELEASE_SCRIPT = defineScript(
  'release',
  `${REGISTRY_PRELUDE}
local sid = ARGV[2]
if ARGV[3] == '1' then unregister(sid) end
for i = 4, #ARGV do
  if redis.call('HGET', K, ARGV[i]) == sid then redis.call('HDEL', K, ARGV[i]) end
end
return 1
`,
)

/** Every registered session with its last use: {id, score, …}. ARGV: prefix. */
const LIST_SCRIPT = defineScript(
  'list',
  `${REGISTRY_PRELUDE}
return redis.call('ZRANGE', Z, 0, -1, 'WITHSCORES')
`,
)

/** The answer when the store holds a sandbox seeded otherwise (it was emptied, then claimed by another). */
export const foreignStore = (): ApiError =>
  new ApiError(
    'service_unavailable',
    'The shared store (Redis) now holds a sandbox with other seeded pets (another --seed or --pets). Restart this instance with the same --seed and --pets as the others, or empty the store.',
    { headers: { 'Retry-After': '1' } },
  )

/** What opening a session asks of the caller: drop these sessions' data. */
export interface Registration {
  /** The least recently used session, evicted to make room (drop it at once). */
  victim: string | undefined
  /** Sessions idle past the TTL (drop each unless it was used meanwhile). */
  idle: string[]
}

/** The registry of the Redis state: sessions and their last use, the key index, the store's identity. */
export interface RedisRegistry {
  /**
   * Registers a session (claiming the store, or checking it is this
   * sandbox's), owned by `owner` when it is new (decision 0026).
   */
  open(sid: string, owner?: string): Promise<Registration>
  /** Marks a session used, behind the answer (at most once a second per session and instance). */
  touch(sid: string, used: number): void
  lookup(key: string): Promise<string | undefined>
  claim(key: string, sid: string): Promise<boolean>
  /** Unbinds keys; with `forget`, the session leaves the registry too. */
  release(sid: string, keys: readonly string[], forget: boolean): Promise<void>
  /** Registered session ids. */
  list(): Promise<string[]>
}

/**
 * The registry of the Redis state. Each reply names the store's identity:
 * when it is not the one this instance saw first, the store lost its data
 * (restarted empty, FLUSHALL) and was claimed again, and `onLost` is told, so
 * that the instance drops every cache (decision 0025).
 *
 * @example
 * const registry = createRedisRegistry(ctx, { onIdle, onLost })
 * await registry.open('default')
 */
export const createRedisRegistry = (
  ctx: RedisStateContext,
  hooks: { onIdle(sid: string): void; onLost(): void },
): RedisRegistry => {
  const { connection } = ctx
  const key = `${connection.prefix}{~}:sessions`
  let storeId: string | undefined
  const touched = new Map<string, number>()

  const register = async (sid: string, mode: 'open' | 'touch', now: number, owner = '') => {
    const reply = (await connection.run(REGISTER_SCRIPT, key, [
      sid,
      mode,
      now,
      ctx.sessionTtlMs,
      ctx.maxSessions,
      ctx.fingerprint,
      randomUUID(),
      owner,
    ])) as [string, string, string[]?, string?]
    const [status, id, idle = [], victim = ''] = reply
    if (storeId !== undefined && id !== storeId) {
      touched.clear()
      hooks.onLost()
    }
    storeId = id
    if (status === 'foreign') throw foreignStore()
    for (const each of idle) hooks.onIdle(each)
    if (status === 'limit')
      throw new ApiError(
        'session_limit_reached',
        `No session can be created: the limit is ${ctx.maxSessions} sessions, default included. Raise --max-sessions or drop a session.`,
        { headers: { 'Retry-After': '1' } },
      )
    return { victim: victim === '' ? undefined : victim, idle }
  }

  return {
    async open(sid, owner) {
      const registration = await register(sid, 'open', ctx.realNow(), owner)
      touched.set(sid, ctx.realNow())
      return registration
    },
    touch(sid, used) {
      const last = touched.get(sid)
      if (last !== undefined && used - last < 1_000) return
      touched.set(sid, used)
      register(sid, 'touch', used).catch(() => {})
    },
    async lookup(token) {
      const sid = await connection.run(LOOKUP_SCRIPT, key, [token])
      return typeof sid === 'string' ? sid : undefined
    },
    async claim(token, sid) {
      return (await connection.write(CLAIM_SCRIPT, key, [token, sid])) === 'ok'
    },
    async release(sid, keys, forget) {
      touched.delete(sid)
      await connection.write(RELEASE_SCRIPT, key, [sid, forget ? 1 : 0, ...keys])
    },
    async list() {
      const rows = (await connection.run(LIST_SCRIPT, key, [])) as string[]
      return rows.filter((_, i) => i % 2 === 0)
    },
  }
}
