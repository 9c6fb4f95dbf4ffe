/**
 * The Lua every session script starts with: key names, and the steps several
 * scripts share (load a session, give it a new version, clear or drop it,
 * sweep idle sessions). Every script gets the key prefix as ARGV[1] and
 * builds its key names from it (a session's keys are `<prefix>s:<id>:<part>`).
 * See docs/decisions/0014-redis-shared-state.md.
 */
export const PRELUDE = `
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

local function drop(sid)
  clear(sid)
  redis.call('DEL', S(sid, 'meta'))
  redis.call('ZREM', Z, sid)
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
