/**
 * The key of a session's meta hash: what every session script is routed by
 * (KEYS[1]). All keys of a session share the hash tag `{<id>}`, so each
 * session lives in one slot of a Redis Cluster and every script about it runs
 * on one node (decision 0024).
 *
 * @example
 * sessionKey('petstore-sandbox:', 'default') // 'petstore-sandbox:{default}:meta'
 */
export const sessionKey = (prefix: string, sid: string): string => `${prefix}{${sid}}:meta`

/**
 * The Lua every session script starts with (ARGV[1] the prefix, ARGV[2] the
 * session id): key names, and the steps several scripts share. A session's
 * keys are `<prefix>{<id>}:<part>`:
 * - `meta` (hash): `epoch` (a random token drawn when the session is created
 *   or reset: it never comes back with lost data), `v` (the version within the
 *   epoch, bumped by every control change), `sticky`, `frozen`, `pv` (pets
 *   version), `jseq`/`jcleared` (journal numbers), `rn` (requests since the
 *   last reset), `kn` (key order), `used` (last use, real time), `fp` (the
 *   seeded pets' fingerprint);
 * - `keys` (hash), `revoked` (set): run-time keys and revoked base keys;
 * - `rl` (hash) and `anon` (sorted set): quota buckets, anonymous ones in use order;
 * - `journal` (sorted set by number); `stores` (set), `st:<store>` (list), `seq:<store>`;
 * - `tl` (hash): timeline name → when its first request met it (timelines named per request).
 * Numbers are written with '%.0f' (Lua 5.1's tostring would write 1.9e+12).
 */
export const PRELUDE = `
local P, sid = ARGV[1], ARGV[2]
local T = P .. '{' .. sid .. '}:'
local META = T .. 'meta'
local function num(x) return string.format('%.0f', x) end

-- What an instance caches of a session: {'ok', version, sticky, frozen, epoch, pv, fp, keys, revoked}.
local function load()
  local m = redis.call('HMGET', META, 'epoch', 'v', 'sticky', 'frozen', 'pv', 'fp')
  if not m[1] then return {'missing'} end
  return {'ok', m[1] .. '/' .. m[2], m[3], m[4], m[1], m[5], m[6],
    redis.call('HGETALL', T .. 'keys'), redis.call('SMEMBERS', T .. 'revoked')}
end

-- Everything of a session but its meta; returns the run-time keys it held.
local function clear()
  local keys = redis.call('HKEYS', T .. 'keys')
  for _, name in ipairs(redis.call('SMEMBERS', T .. 'stores')) do
    redis.call('DEL', T .. 'st:' .. name, T .. 'seq:' .. name)
  end
  redis.call('DEL', T .. 'keys', T .. 'revoked', T .. 'rl', T .. 'anon', T .. 'journal', T .. 'stores',
    T .. 'tl')
  return keys
end
`
