/**
 * The Lua scripts of the Redis state. Each runs atomically in Redis, so what
 * several instances do to one session is serialized there: the quota check
 * and consumption, id assignment, key creation, reset, session creation.
 *
 * Every script gets the key prefix as ARGV[1] and builds its key names from
 * it (a session's keys are `<prefix>s:<id>:<part>`), so the scripts need a
 * single Redis, not a Redis Cluster. Numbers are written with '%.0f' (Lua
 * 5.1's tostring would write 1.9e+12). See docs/decisions/0014-redis-shared-state.md.
 */

const COMMON = `
local P = ARGV[1]
local function S(sid, part) return P .. 's:' .. sid .. ':' .. part end
local function num(x) return string.format('%.0f', x) end
local Z = P .. 'sessions'

-- What an instance caches of a session, and the key index when it changed.
local function load(sid, ckv)
  local m = redis.call('HMGET', S(sid, 'meta'), 'v', 'sticky', 'frozen', 'epoch', 'pv')
  local kv = redis.call('GET', P .. 'keyindex:v') or '0'
  local index = false
  if kv ~= ckv then index = redis.call('HGETALL', P .. 'keyindex') end
  if not m[1] then return {'missing', kv, index} end
  return {'ok', kv, index, m[1], m[2], m[3], m[4], m[5],
    redis.call('HGETALL', S(sid, 'keys')), redis.call('SMEMBERS', S(sid, 'revoked'))}
end

local function bump(sid)
  local v = redis.call('INCR', P .. 'ver')
  redis.call('HSET', S(sid, 'meta'), 'v', v)
  return v
end

-- Everything of a session but its meta: keys (and their index entries), stores, quotas, journal.
local function clear(sid)
  local keys = redis.call('HKEYS', S(sid, 'keys'))
  if #keys > 0 then
    redis.call('HDEL', P .. 'keyindex', unpack(keys))
    redis.call('INCR', P .. 'keyindex:v')
  end
  for _, name in ipairs(redis.call('SMEMBERS', S(sid, 'stores'))) do
    redis.call('DEL', S(sid, 'st:' .. name), S(sid, 'seq:' .. name))
  end
  redis.call('DEL', S(sid, 'keys'), S(sid, 'revoked'), S(sid, 'rl'), S(sid, 'journal'), S(sid, 'stores'))
end

-- Who opened each session (decision 0026): H counts the sessions per owner,
-- O(owner) orders one owner's sessions by last use.
local H = P .. 'holders'
local function O(owner) return P .. 'o:' .. owner end

-- Marks a session used now, in the global order and in its owner's.
local function touch(sid, now)
  redis.call('ZADD', Z, num(now), sid)
  local owner = redis.call('HGET', S(sid, 'meta'), 'owner')
  if owner then redis.call('ZADD', O(owner), num(now), sid) end
end

local function drop(sid)
  local owner = redis.call('HGET', S(sid, 'meta'), 'owner')
  if owner then
    redis.call('ZREM', O(owner), sid)
    if tonumber(redis.call('ZINCRBY', H, -1, owner)) <= 0 then redis.call('ZREM', H, owner) end
  end
  clear(sid)
  redis.call('DEL', S(sid, 'meta'))
  redis.call('ZREM', Z, sid)
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
  for _, id in ipairs(redis.call('ZRANGE', Z, 0, 1)) do
    if id ~= 'default' then return id end
  end
  return false
end

-- Drops the sessions idle for ttl ms or more ('default' never); returns their ids.
local function sweep(now, ttl)
  local dropped = {}
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', Z, '-inf', num(now - ttl))) do
    if id ~= 'default' then
      drop(id)
      dropped[#dropped + 1] = id
    end
  end
  return dropped
end
`

/**
 * The limiter of src/rate-limit/rate-limiter.ts, step for step: two fixed UTC
 * windows, rejections counted against the spent window (the day when both
 * are), a ban after more than `banAfter` of them. It returns the raw window
 * state; the headers and Retry-After are computed in TypeScript by the same
 * functions the in-memory limiter calls (describe-window.ts).
 * A bucket is one hash field: "minute minuteUsed minuteRejected day dayUsed dayRejected bannedUntil".
 */
const LIMITER = `
local function parse(raw)
  local b = {}
  for x in string.gmatch(raw, '%S+') do b[#b + 1] = tonumber(x) end
  return b
end

-- banAfter < 0: never ban. banEndAt: when a ban starting now ends (banEnd() in TypeScript).
local function limit(rl, name, perMinute, perDay, now, bannable, banAfter, banEndAt, mode)
  local minute = math.floor(now / 60000)
  local day = math.floor(now / 86400000)
  local raw = redis.call('HGET', rl, name)
  if mode == 'peek' then
    local mu, du, ban = 0, 0, -1
    if raw then
      local b = parse(raw)
      if b[1] == minute then mu = b[2] end
      if b[4] == day then du = b[5] end
      if now < b[7] then ban = b[7] end
    end
    return {'peek', perMinute - mu, perDay - du, ban}
  end
  -- Memory only: the first request of another day forgets the buckets of ended days (not banned).
  if redis.call('HGET', rl, '~swept') ~= num(day) then
    local all = redis.call('HGETALL', rl)
    for i = 1, #all, 2 do
      if all[i] ~= '~swept' then
        local b = parse(all[i + 1])
        if b[4] ~= day and b[7] <= now then redis.call('HDEL', rl, all[i]) end
      end
    end
    redis.call('HSET', rl, '~swept', num(day))
    raw = redis.call('HGET', rl, name)
  end
  local b
  if raw then b = parse(raw) else b = {minute, 0, 0, day, 0, 0, 0} end
  if b[1] ~= minute then b[1] = minute; b[2] = 0; b[3] = 0 end
  if b[4] ~= day then b[4] = day; b[5] = 0; b[6] = 0 end
  local minuteLeft = perMinute - b[2]
  local dayLeft = perDay - b[5]
  local result
  if now < b[7] then
    result = {'banned', minuteLeft, dayLeft, b[7]}
  elseif minuteLeft > 0 and dayLeft > 0 then
    b[2] = b[2] + 1
    b[5] = b[5] + 1
    result = {'allowed', minuteLeft - 1, dayLeft - 1, -1}
  else
    local dayExhausted = dayLeft <= 0
    local rejected
    if dayExhausted then b[6] = b[6] + 1; rejected = b[6] else b[3] = b[3] + 1; rejected = b[3] end
    if bannable and banAfter >= 0 and rejected > banAfter then
      b[7] = banEndAt
      b[3] = 0
      b[6] = 0
      result = {'banned', minuteLeft, dayLeft, b[7]}
    elseif dayExhausted then
      result = {'day', minuteLeft, dayLeft, -1}
    else
      result = {'minute', minuteLeft, dayLeft, -1}
    end
  end
  redis.call('HSET', rl, name, num(b[1]) .. ' ' .. num(b[2]) .. ' ' .. num(b[3]) .. ' ' .. num(b[4]) .. ' ' .. num(b[5]) .. ' ' .. num(b[6]) .. ' ' .. num(b[7]))
  return result
end
`

/** The limiter alone on one hash (the limiter's unit tests). ARGV: prefix, hash, bucket, perMinute, perDay, now, bannable, banAfter, banEndAt, mode. */
export const LIMIT_SCRIPT = `
local function num(x) return string.format('%.0f', x) end
${LIMITER}
return limit(ARGV[1] .. ARGV[2], ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]),
  ARGV[7] == '1', tonumber(ARGV[8]), tonumber(ARGV[9]), ARGV[10])
`

/**
 * A session, created from the seed when it does not exist (dropping the least
 * recently used one past the limit), marked used, and loaded.
 * ARGV: prefix, sid, realNow, ttl, max, startScenario, cachedKeyIndexVersion,
 * owner ('' for the sandbox's own callers; decision 0026).
 * Returns {created, droppedIds, load} or {'limit'}.
 */
export const OPEN_SCRIPT = `${COMMON}
local sid, now, ttl, max = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local dropped = {}
if sid ~= 'default' then dropped = sweep(now, ttl) end
local created = 0
if redis.call('EXISTS', S(sid, 'meta')) == 0 then
  if sid ~= 'default' then
    local others = redis.call('ZCARD', Z)
    if redis.call('ZSCORE', Z, 'default') then others = others - 1 end
    if others + 1 >= max then
      local id = victim(ARGV[8])
      if not id then return {'limit'} end
      drop(id)
      dropped[#dropped + 1] = id
    end
  end
  local v = redis.call('INCR', P .. 'ver')
  redis.call('HSET', S(sid, 'meta'), 'v', v, 'sticky', ARGV[6], 'frozen', '', 'epoch', v, 'pv', 0, 'jseq', 0, 'jcleared', 0)
  if sid ~= 'default' then
    redis.call('HSET', S(sid, 'meta'), 'owner', ARGV[8])
    redis.call('ZINCRBY', H, 1, ARGV[8])
  end
  created = 1
end
touch(sid, now)
return {created, dropped, load(sid, ARGV[7])}
`

/**
 * The hot path, one round trip per request: checks that what the instance
 * read from its cache (session version, key index version) is current, marks
 * the session used, counts the request (or peeks), reserves its journal
 * number and reads the pets version.
 * ARGV: prefix, sid, cachedV, cachedKv, realNow, ttl, bucket, perMinute,
 * perDay, now, bannable, banAfter, banEndAt, mode.
 * Returns {'stale', load} or {'ok', kind, minuteLeft, dayLeft, banEndsAt, seq, pv, droppedIds}.
 */
export const TAKE_SCRIPT = `${COMMON}${LIMITER}
local sid = ARGV[2]
local meta = S(sid, 'meta')
local v = redis.call('HGET', meta, 'v')
local kv = redis.call('GET', P .. 'keyindex:v') or '0'
if v ~= ARGV[3] or kv ~= ARGV[4] then return {'stale', load(sid, ARGV[4])} end
local now = tonumber(ARGV[5])
local dropped = {}
if sid ~= 'default' then dropped = sweep(now, tonumber(ARGV[6])) end
touch(sid, now)
local r = limit(S(sid, 'rl'), ARGV[7], tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10]),
  ARGV[11] == '1', tonumber(ARGV[12]), tonumber(ARGV[13]), ARGV[14])
local seq = redis.call('HINCRBY', meta, 'jseq', 1)
return {'ok', r[1], r[2], r[3], r[4], seq, redis.call('HGET', meta, 'pv'), dropped}
`

/** A fresh look at a session (the control API's reads). ARGV: prefix, sid, cachedKv. */
export const LOAD_SCRIPT = `${COMMON}
return load(ARGV[2], ARGV[3])
`

/**
 * Creates a pet: the next id of the store, atomically, appended to the store's
 * list (so the list stays in id order). ARGV: prefix, sid, store, seededCount,
 * petJsonWithoutId (the JSON object minus its opening brace), maxId.
 * Returns the id, 0 when the session is gone, -1 when the id space is spent.
 */
export const CREATE_SCRIPT = `${COMMON}
local sid, name = ARGV[2], ARGV[3]
local meta = S(sid, 'meta')
if redis.call('EXISTS', meta) == 0 then return 0 end
local seqKey = S(sid, 'seq:' .. name)
if not redis.call('GET', seqKey) then redis.call('SET', seqKey, ARGV[4]) end
local id = redis.call('INCR', seqKey)
if id > tonumber(ARGV[6]) then
  redis.call('DECR', seqKey)
  return -1
end
redis.call('RPUSH', S(sid, 'st:' .. name), '{"id":' .. id .. ',' .. ARGV[5])
redis.call('SADD', S(sid, 'stores'), name)
redis.call('HINCRBY', meta, 'pv', 1)
return id
`

/**
 * The control mutations, one script: ARGV: prefix, sid, op, args…, cachedKv.
 * Every mutation gives the session a new version, so every instance's cache
 * of it is found stale by its next request. Returns {result, load}.
 */
export const CONTROL_SCRIPT = `${COMMON}
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
`

/** Records a journal entry unless the journal was cleared after its number was taken. ARGV: prefix, sid, seq, json, capacity. */
export const RECORD_SCRIPT = `${COMMON}
local sid, seq = ARGV[2], tonumber(ARGV[3])
local meta = S(sid, 'meta')
local cleared = tonumber(redis.call('HGET', meta, 'jcleared') or '-1')
if cleared < 0 or seq <= cleared then return 0 end
local journal = S(sid, 'journal')
redis.call('ZADD', journal, seq, ARGV[4])
redis.call('ZREMRANGEBYRANK', journal, 0, -(tonumber(ARGV[5]) + 1))
return 1
`

/** A journal number for a request that took none (refused before the quota). ARGV: prefix, sid. */
export const NEXT_SEQ_SCRIPT = `${COMMON}
if redis.call('EXISTS', S(ARGV[2], 'meta')) == 0 then return 0 end
return redis.call('HINCRBY', S(ARGV[2], 'meta'), 'jseq', 1)
`

/** The journal after its last clear. ARGV: prefix, sid. */
export const JOURNAL_SCRIPT = `${COMMON}
local cleared = redis.call('HGET', S(ARGV[2], 'meta'), 'jcleared') or '0'
return redis.call('ZRANGEBYSCORE', S(ARGV[2], 'journal'), '(' .. cleared, '+inf')
`

/** How many pets a session created in one store. ARGV: prefix, sid, store. */
export const STORE_RANGE_SCRIPT = `${COMMON}
return redis.call('LRANGE', S(ARGV[2], 'st:' .. ARGV[3]), tonumber(ARGV[4]), -1)
`

/**
 * Every session, least recently used first: {id, lastUsed, sticky, createdPets, journalCount}.
 * ARGV: prefix.
 */
export const SESSIONS_SCRIPT = `${COMMON}
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
`

/** The sandbox's fingerprint (its seeded pets), set by the first instance. ARGV: prefix, fingerprint. */
export const CONFIG_SCRIPT = `
local key = ARGV[1] .. 'config'
local current = redis.call('HGET', key, 'seeded')
if not current then
  redis.call('HSET', key, 'seeded', ARGV[2])
  return ARGV[2]
end
return current
`
