import {
  type AccountKeyRecord,
  type AccountRecord,
  type AccountStore,
  type AddKeyResult,
  isLiveKey,
  type LoginRecord,
  type ThrottleCount,
} from '../account-store.js'
import type { RedisConnection } from './redis-connection.js'
import { defineScript } from './redis-script.js'

/**
 * Every account key shares the hash tag `{~acct}` (`~` is in no session id):
 * one slot, so each operation is one atomic script on one node, on one Redis
 * or a Cluster alike (decision 0062). Layout under `<prefix>{~acct}:`:
 * `acct` (id → account JSON), `email` (email → id), `ids` (sorted set, by id),
 * `key` (key id → key JSON as made), `kexp` / `kused` (key id → expiresAt /
 * lastUsedAt: the fields that change), `hash` (key digest → key id), `ak:<id>`
 * (the account's key ids), `inv` (invite digest → createdAt), `login` (cookie
 * digest → log-in JSON), `al:<id>` (the account's log-in digests, a sorted set in the order made; `lseq` its counter), `hit:<name>`
 * (a throttle's count and window end). Only digests and scrypt hashes: a dump
 * gives no key and no password (the server hashes, decision 0061).
 *
 * ARGV: prefix, operation, its arguments. Numbers are written with '%.0f'.
 */
const ACCOUNTS_SCRIPT = defineScript(
  'accounts',
  `
local A = ARGV[1] .. '{~acct}:'
local op = ARGV[2]
local function live(id, now)
  local exp = redis.call('HGET', A .. 'kexp', id)
  return (not exp) or now < tonumber(exp)
end
local function keyRow(id)
  local json = redis.call('HGET', A .. 'key', id)
  if not json then return false end
  return {json, redis.call('HGET', A .. 'kexp', id) or '', redis.call('HGET', A .. 'kused', id) or ''}
end
local function dropKey(id)
  local json = redis.call('HGET', A .. 'key', id)
  if not json then return end
  local key = cjson.decode(json)
  redis.call('HDEL', A .. 'hash', key.hash)
  redis.call('HDEL', A .. 'key', id)
  redis.call('HDEL', A .. 'kexp', id)
  redis.call('HDEL', A .. 'kused', id)
  redis.call('SREM', A .. 'ak:' .. key.accountId, id)
end
if op == 'create' then
  local id, email = ARGV[3], ARGV[4]
  if redis.call('HEXISTS', A .. 'email', email) == 1 or redis.call('HEXISTS', A .. 'acct', id) == 1 then return 0 end
  redis.call('HSET', A .. 'acct', id, ARGV[5])
  redis.call('HSET', A .. 'email', email, id)
  redis.call('ZADD', A .. 'ids', 0, id)
  return 1
elseif op == 'byEmail' then
  local id = redis.call('HGET', A .. 'email', ARGV[3])
  if not id then return false end
  return redis.call('HGET', A .. 'acct', id)
elseif op == 'account' then
  return redis.call('HGET', A .. 'acct', ARGV[3])
elseif op == 'list' then
  local from = ARGV[3] == '' and '-' or ('(' .. ARGV[3])
  local ids = redis.call('ZRANGEBYLEX', A .. 'ids', from, '+', 'LIMIT', 0, tonumber(ARGV[4]))
  if #ids == 0 then return {} end
  return redis.call('HMGET', A .. 'acct', unpack(ids))
elseif op == 'count' then
  return redis.call('ZCARD', A .. 'ids')
elseif op == 'delete' then
  local id = ARGV[3]
  local json = redis.call('HGET', A .. 'acct', id)
  if not json then return 0 end
  redis.call('HDEL', A .. 'email', cjson.decode(json).email)
  redis.call('HDEL', A .. 'acct', id)
  redis.call('ZREM', A .. 'ids', id)
  for _, keyId in ipairs(redis.call('SMEMBERS', A .. 'ak:' .. id)) do dropKey(keyId) end
  redis.call('DEL', A .. 'ak:' .. id)
  for _, token in ipairs(redis.call('ZRANGE', A .. 'al:' .. id, 0, -1)) do redis.call('HDEL', A .. 'login', token) end
  redis.call('DEL', A .. 'al:' .. id)
  return 1
elseif op == 'addKey' then
  local id, accountId, hash = ARGV[3], ARGV[4], ARGV[5]
  local maxLive, now = tonumber(ARGV[7]), tonumber(ARGV[8])
  if redis.call('HEXISTS', A .. 'acct', accountId) == 0 then return 'no_account' end
  local count = 0
  for _, keyId in ipairs(redis.call('SMEMBERS', A .. 'ak:' .. accountId)) do
    if live(keyId, now) then count = count + 1 end
  end
  if count >= maxLive then return 'too_many' end
  redis.call('HSET', A .. 'key', id, ARGV[6])
  redis.call('HSET', A .. 'hash', hash, id)
  redis.call('SADD', A .. 'ak:' .. accountId, id)
  if ARGV[9] ~= '' then redis.call('HSET', A .. 'kexp', id, ARGV[9]) end
  if ARGV[10] ~= '' then redis.call('HSET', A .. 'kused', id, ARGV[10]) end
  return 'added'
elseif op == 'keys' then
  local out = {}
  for _, keyId in ipairs(redis.call('SMEMBERS', A .. 'ak:' .. ARGV[3])) do
    local row = keyRow(keyId)
    if row then out[#out + 1] = row end
  end
  return out
elseif op == 'key' then
  return keyRow(ARGV[3])
elseif op == 'byHash' then
  local id = redis.call('HGET', A .. 'hash', ARGV[3])
  if not id then return false end
  return keyRow(id)
elseif op == 'dropKey' then
  dropKey(ARGV[3])
  return 1
elseif op == 'expire' then
  local accountId, id, at, now = ARGV[3], ARGV[4], tonumber(ARGV[5]), tonumber(ARGV[6])
  local json = redis.call('HGET', A .. 'key', id)
  if not json or cjson.decode(json).accountId ~= accountId or not live(id, now) then return 0 end
  local exp = redis.call('HGET', A .. 'kexp', id)
  if (not exp) or at < tonumber(exp) then redis.call('HSET', A .. 'kexp', id, ARGV[5]) end
  return 1
elseif op == 'touch' then
  local json = redis.call('HGET', A .. 'key', ARGV[4])
  if json and cjson.decode(json).accountId == ARGV[3] then redis.call('HSET', A .. 'kused', ARGV[4], ARGV[5]) end
  return 1
elseif op == 'addInvite' then
  redis.call('HSET', A .. 'inv', ARGV[3], ARGV[4])
  return 1
elseif op == 'takeInvite' then
  return redis.call('HDEL', A .. 'inv', ARGV[3])
elseif op == 'addLogin' then
  -- The account's log-ins in the order they were made (a counter as the score); past the
  -- account's most (ARGV[6]), its oldest are signed out.
  local mine = A .. 'al:' .. ARGV[4]
  redis.call('HSET', A .. 'login', ARGV[3], ARGV[5])
  redis.call('ZADD', mine, redis.call('INCR', A .. 'lseq'), ARGV[3])
  local over = redis.call('ZCARD', mine) - tonumber(ARGV[6])
  if over > 0 then
    for _, token in ipairs(redis.call('ZRANGE', mine, 0, over - 1)) do
      redis.call('HDEL', A .. 'login', token)
    end
    redis.call('ZREMRANGEBYRANK', mine, 0, over - 1)
  end
  return 1
elseif op == 'login' then
  return redis.call('HGET', A .. 'login', ARGV[3])
elseif op == 'dropLogin' then
  local json = redis.call('HGET', A .. 'login', ARGV[3])
  if json then
    redis.call('ZREM', A .. 'al:' .. cjson.decode(json).accountId, ARGV[3])
    redis.call('HDEL', A .. 'login', ARGV[3])
  end
  return 1
elseif op == 'unhit' then
  -- Takes back one hit of a window still running (a log-in counted before its check).
  local k = A .. 'hit:' .. ARGV[3]
  local count = tonumber(redis.call('HGET', k, 'n') or '0')
  local resetAt = tonumber(redis.call('HGET', k, 'r') or '0')
  if count > 0 and tonumber(ARGV[4]) < resetAt then redis.call('HINCRBY', k, 'n', -1) end
  return 1
elseif op == 'hit' then
  local k = A .. 'hit:' .. ARGV[3]
  local now = tonumber(ARGV[4])
  local count = tonumber(redis.call('HGET', k, 'n') or '0')
  local resetAt = tonumber(redis.call('HGET', k, 'r') or '0')
  if count == 0 or now >= resetAt then
    count, resetAt = 1, now + tonumber(ARGV[5])
    redis.call('HSET', k, 'n', 1, 'r', string.format('%.0f', resetAt))
    -- Bounded in memory by real time too: a window ends, its counter goes (a minute's slack).
    redis.call('PEXPIRE', k, tonumber(ARGV[5]) + 60000)
  else
    count = redis.call('HINCRBY', k, 'n', 1)
  end
  return {tostring(count), string.format('%.0f', resetAt)}
end
return redis.error_reply('unknown accounts operation ' .. op)
`,
)

type Row = [json: string, expiresAt: string, lastUsedAt: string]

const keyOf = (row: Row): AccountKeyRecord => {
  const made = JSON.parse(row[0]) as AccountKeyRecord
  return {
    ...made,
    expiresAt: row[1] === '' ? null : Number(row[1]),
    lastUsedAt: row[2] === '' ? null : Number(row[2]),
  }
}

const num = (value: number | null): string => (value === null ? '' : value.toFixed(0))

/**
 * The account seam (decision 0061) on Redis, one node or a Cluster: every
 * instance on the store sees every account, key, revocation and roll at once,
 * because nothing is cached here (the request path's `keyByHash` is one round
 * trip). Writes an answer depends on (`createAccount`, `addKey`, `expireKey`,
 * `deleteAccount`, invites, log-ins) are acknowledged writes (`WAIT 1` on a
 * Cluster); `touchKey` is sent behind the answer.
 *
 * @example
 * const accounts = createRedisAccountStore(connection)
 * await accounts.keyByHash(sha256hex, Date.now())
 */
export const createRedisAccountStore = (connection: RedisConnection): AccountStore => {
  const key = `${connection.prefix}{~acct}:acct`
  const read = (op: string, ...args: (string | number)[]) =>
    connection.run(ACCOUNTS_SCRIPT, key, [op, ...args])
  const write = (op: string, ...args: (string | number)[]) =>
    connection.write(ACCOUNTS_SCRIPT, key, [op, ...args])
  const parseAccount = (json: unknown): AccountRecord | undefined =>
    typeof json === 'string' ? (JSON.parse(json) as AccountRecord) : undefined
  const store: AccountStore = {
    async createAccount(account) {
      return (await write('create', account.id, account.email, JSON.stringify(account))) === 1
    },
    async accountByEmail(email) {
      return parseAccount(await read('byEmail', email))
    },
    async account(id) {
      return parseAccount(await read('account', id))
    },
    async listAccounts(after, limit) {
      const rows = (await read('list', after ?? '', Math.max(0, limit))) as (string | null)[]
      return rows.flatMap((row) => (row === null ? [] : [JSON.parse(row) as AccountRecord]))
    },
    async countAccounts() {
      return Number(await read('count'))
    },
    async deleteAccount(id) {
      return (await write('delete', id)) === 1
    },
    async addKey(made, maxLive, now) {
      const { expiresAt, lastUsedAt, ...fixed } = made
      return (await write(
        'addKey',
        made.id,
        made.accountId,
        made.hash,
        JSON.stringify(fixed),
        maxLive,
        now.toFixed(0),
        num(expiresAt),
        num(lastUsedAt),
      )) as AddKeyResult
    },
    async listKeys(accountId, now) {
      const rows = (await read('keys', accountId)) as Row[]
      return rows
        .map(keyOf)
        .filter((k) => isLiveKey(k, now))
        .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1))
    },
    async key(accountId, keyId) {
      const row = (await read('key', keyId)) as Row | null
      const found = row === null ? undefined : keyOf(row)
      return found?.accountId === accountId ? found : undefined
    },
    async keyByHash(hash, now) {
      const row = (await read('byHash', hash)) as Row | null
      if (row === null) return undefined
      const found = keyOf(row)
      if (isLiveKey(found, now)) return found
      // A key past its end is gone for good (as in memory).
      connection.send(ACCOUNTS_SCRIPT, key, ['dropKey', found.id])
      return undefined
    },
    async expireKey(accountId, keyId, at, now) {
      return (await write('expire', accountId, keyId, at.toFixed(0), now.toFixed(0))) === 1
    },
    touchKey(accountId, keyId, at) {
      connection.send(ACCOUNTS_SCRIPT, key, ['touch', accountId, keyId, at.toFixed(0)])
    },
    async addInvite(codeHash, createdAt) {
      await write('addInvite', codeHash, createdAt.toFixed(0))
    },
    async takeInvite(codeHash) {
      return (await write('takeInvite', codeHash)) === 1
    },
    async addLogin(tokenHash, login: LoginRecord, maxPerAccount) {
      await write(
        'addLogin',
        tokenHash,
        login.accountId,
        JSON.stringify(login),
        maxPerAccount.toFixed(0),
      )
    },
    async login(tokenHash, now) {
      const json = await read('login', tokenHash)
      if (typeof json !== 'string') return undefined
      const login = JSON.parse(json) as LoginRecord
      if (now < login.expiresAt) return login
      connection.send(ACCOUNTS_SCRIPT, key, ['dropLogin', tokenHash])
      return undefined
    },
    async dropLogin(tokenHash) {
      await write('dropLogin', tokenHash)
    },
    async hit(counter, windowMs, now) {
      return toCount(await write('hit', counter, now.toFixed(0), windowMs.toFixed(0)))
    },
    async unhit(counter, now) {
      await write('unhit', counter, now.toFixed(0))
    },
  }
  return store
}

const toCount = (reply: unknown): ThrottleCount => {
  const [count, resetAt] = reply as [string, string]
  return { count: Number(count), resetAt: Number(resetAt) }
}
