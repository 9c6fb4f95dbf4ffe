import type { Redis } from 'ioredis'
import { anonymousBucketName } from '../../rate-limit/anonymous-bucket-name.js'
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
import {
  ANONYMOUS_BUCKET_CAP,
  type BucketSnapshot,
  type RateLimitDecision,
  type TakeRequest,
} from '../../rate-limit/rate-limiter.js'
import { PRELUDE, sessionKey } from './lua-prelude.js'
import { defineScript } from './redis-script.js'
import type { LoadReply } from './redis-sessions.js'
import type { RedisStateContext } from './redis-state-context.js'

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

-- The buckets a call read, kept for its other requests and written back once
-- at its end (flushBuckets): a call may count several requests (take-many).
local held, dirty, names, swept = {}, {}, {}, nil
local function bucket(rl, name)
  local b = held[name]
  if b == nil then
    local raw = redis.call('HGET', rl, name)
    b = raw and parse(raw) or false
    held[name] = b
    names[#names + 1] = name
  end
  return b
end
local function flushBuckets(rl)
  local args = {}
  for _, name in ipairs(names) do
    local b = held[name]
    if b and dirty[name] then
      args[#args + 1] = name
      args[#args + 1] = string.format('%.0f %.0f %.0f %.0f %.0f %.0f %.0f', b[1], b[2], b[3], b[4], b[5], b[6], b[7])
    end
  end
  if #args > 0 then redis.call('HSET', rl, unpack(args)) end
  held, dirty, names = {}, {}, {}
end

-- rl: the buckets (hash); lru: anonymous buckets in use order (sorted set), at most cap of them.
-- banAfter < 0: never ban. banEndAt: when a ban starting now ends (banEnd() in TypeScript).
local function limit(rl, lru, name, perMinute, perDay, now, bannable, banAfter, banEndAt, mode, cap)
  local minute = math.floor(now / 60000)
  local day = math.floor(now / 86400000)
  if mode == 'peek' then
    local mu, du, ban = 0, 0, -1
    local b = bucket(rl, name)
    if b then
      if b[1] == minute then mu = b[2] end
      if b[4] == day then du = b[5] end
      if now < b[7] then ban = b[7] end
    end
    return {'peek', perMinute - mu, perDay - du, ban}
  end
  -- Memory only: the first request of another day forgets the buckets of ended days (not banned).
  if swept == nil then swept = redis.call('HGET', rl, '~swept') or '' end
  if swept ~= num(day) then
    flushBuckets(rl)
    local all = redis.call('HGETALL', rl)
    for i = 1, #all, 2 do
      if string.sub(all[i], 1, 1) ~= '~' then
        local b = parse(all[i + 1])
        if b[4] ~= day and b[7] <= now then
          redis.call('HDEL', rl, all[i])
          if string.sub(all[i], 1, 5) == 'anon:' then redis.call('ZREM', lru, all[i]) end
        end
      end
    end
    swept = num(day)
    redis.call('HSET', rl, '~swept', swept)
  end
  -- Anonymous buckets: the most recently used cap of them are kept (as in memory).
  if string.sub(name, 1, 5) == 'anon:' then
    redis.call('ZADD', lru, redis.call('HINCRBY', rl, '~tick', 1), name)
    local over = redis.call('ZCARD', lru) - cap
    if over > 0 then
      local old = redis.call('ZRANGE', lru, 0, over - 1)
      redis.call('ZREMRANGEBYRANK', lru, 0, over - 1)
      redis.call('HDEL', rl, unpack(old))
      for _, gone in ipairs(old) do
        if held[gone] ~= nil then held[gone] = false; dirty[gone] = nil end
      end
    end
  end
  local b = bucket(rl, name)
  if not b then
    b = {minute, 0, 0, day, 0, 0, 0}
    held[name] = b
  end
  dirty[name] = true
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
  return result
end
`

/**
 * The limiter alone on one hash (the limiter's unit tests). ARGV: prefix,
 * hash, bucket, perMinute, perDay, now, bannable, banAfter, banEndAt, mode, cap.
 */
const LIMIT_SCRIPT = defineScript(
  'limit',
  `
local function num(x) return string.format('%.0f', x) end
${LIMITER}
local r = limit(ARGV[1] .. ARGV[2], ARGV[1] .. ARGV[2] .. ':anon', ARGV[3], tonumber(ARGV[4]),
  tonumber(ARGV[5]), tonumber(ARGV[6]), ARGV[7] == '1', tonumber(ARGV[8]), tonumber(ARGV[9]),
  ARGV[10], tonumber(ARGV[11]))
flushBuckets(ARGV[1] .. ARGV[2])
return r
`,
)

/**
 * The hot path, one round trip per request: checks that what the instance
 * read from its cache (the session's epoch and version) is current, marks the
 * session used, counts the request (or peeks), numbers it (journal number and
 * position since the last reset) and reads the pets version. A request is two
 * arguments: its numbers and words space-separated (cachedVersion, realNow,
 * perMinute, perDay, now, bannable, banAfter, banEndAt, mode, anonymousCap),
 * then its bucket (a key may hold a space). Its reply is {'stale', load} or
 * one string: "ok kind minuteLeft dayLeft banEndsAt seq pv position" (few
 * values to encode and decode a request, decision 0069).
 */
const TAKE = `${PRELUDE}${LIMITER}
-- The session's numbers, read once a call and written back once at its end (finish).
local meta, used = nil, nil
local function finish()
  flushBuckets(T .. 'rl')
  if used then
    redis.call('HSET', META, 'used', used, 'rn', num(tonumber(meta[4]) or 0), 'jseq', num(meta[5]))
  end
end
local function take(packed, bucketName)
  local a = {}
  for x in string.gmatch(packed, '%S+') do a[#a + 1] = x end
  if meta == nil then meta = redis.call('HMGET', META, 'epoch', 'v', 'pv', 'rn', 'jseq') end
  local m = meta
  if not m[1] or (m[1] .. '/' .. m[2]) ~= a[1] then
    finish()
    used = nil
    return {'stale', load()}
  end
  local r = limit(T .. 'rl', T .. 'anon', bucketName, tonumber(a[3]), tonumber(a[4]), tonumber(a[5]),
    a[6] == '1', tonumber(a[7]), tonumber(a[8]), a[9], tonumber(a[10]))
  -- Marked used and numbered (written at the end: the script is atomic).
  local seq = (tonumber(m[5]) or 0) + 1
  m[5] = seq
  local position = 0
  if a[9] == 'take' then
    position = (tonumber(m[4]) or 0) + 1
    m[4] = position
  end
  used = a[2]
  return 'ok ' .. r[1] .. ' ' .. num(r[2]) .. ' ' .. num(r[3]) .. ' ' .. num(r[4]) .. ' ' ..
    num(seq) .. ' ' .. (m[3] or '0') .. ' ' .. num(position)
end
`
/** One request. ARGV: prefix, sid, packed, bucket. */
const TAKE_SCRIPT = defineScript(
  'take',
  `${TAKE}
local r = take(ARGV[3], ARGV[4])
finish()
return r
`,
)

/**
 * Several requests of one session in one call, in the order they came (as
 * many calls of `take` in a row would). ARGV: prefix, sid, then per request
 * packed, bucket. Returns each request's reply.
 */
const TAKE_MANY_SCRIPT = defineScript(
  'take-many',
  `${TAKE}
local out = {}
for i = 3, #ARGV, 2 do out[#out + 1] = take(ARGV[i], ARGV[i + 1]) end
finish()
return out
`,
)

/** The key buckets of a session (not the anonymous ones, as in memory): {name, raw, …}. ARGV: prefix, sid. */
const QUOTAS_SCRIPT = defineScript(
  'quotas',
  `${PRELUDE}
local out = {}
local all = redis.call('HGETALL', T .. 'rl')
for i = 1, #all, 2 do
  local name = all[i]
  if string.sub(name, 1, 1) ~= '~' and string.sub(name, 1, 5) ~= 'anon:' then
    out[#out + 1] = name
    out[#out + 1] = all[i + 1]
  end
end
return out
`,
)

/**
 * The key buckets of a session as of `now`, as the in-memory limiter's
 * `snapshot` reads them: windows that ended count 0, a ban only while it lasts.
 *
 * @example
 * const buckets = await readQuotas(ctx, 'default', Date.now())
 */
export const readQuotas = async (
  ctx: RedisStateContext,
  sid: string,
  now: number,
): Promise<BucketSnapshot[]> => {
  const rows = (await ctx.connection.run(QUOTAS_SCRIPT, sessionKey(ctx.connection.prefix, sid), [
    sid,
  ])) as string[]
  const minute = Math.floor(now / MINUTE_MS)
  const day = Math.floor(now / DAY_MS)
  const buckets: BucketSnapshot[] = []
  for (let i = 0; i < rows.length; i += 2) {
    const [bMinute, minuteUsed, , bDay, dayUsed, , bannedUntil] = (rows[i + 1] as string)
      .split(' ')
      .map(Number) as number[]
    buckets.push({
      bucket: rows[i] as string,
      minuteUsed: bMinute === minute ? (minuteUsed as number) : 0,
      dayUsed: bDay === day ? (dayUsed as number) : 0,
      bannedUntil: (bannedUntil as number) > now ? bannedUntil : undefined,
    })
  }
  return buckets
}

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

/** What a request's one round trip answered. */
export type CountReply =
  | { stale: LoadReply }
  | {
      stale: undefined
      decision: RateLimitDecision
      /** The journal number it reserved. */
      seq: number
      /** The session's pets version. */
      pv: string
      /** Its position among the session's requests since the last reset (0 for a peek). */
      position: number
    }

/** Stale (with the session as loaded), or "ok kind minuteLeft dayLeft banEndsAt seq pv position". */
type TakeReply = ['stale', LoadReply] | string

interface Waiting {
  packed: string
  bucket: string
  resolve(reply: TakeReply): void
  reject(error: unknown): void
}

/**
 * Requests waiting for their round trip, per connection and session. The
 * requests one poll of the event loop read go out together, once it has read
 * them all (`setImmediate`): one call a session (`take-many`, decision 0069),
 * whose requests Redis takes in the order they came, as it would separate calls.
 */
const queues = new WeakMap<RedisStateContext['connection'], Map<string, Waiting[]>>()

/** One session's waiting requests in one call (one alone: `take`). */
const sendBatch = (
  connection: RedisStateContext['connection'],
  sid: string,
  waiting: Waiting[],
): void => {
  const key = sessionKey(connection.prefix, sid)
  if (waiting.length === 1) {
    const [one] = waiting as [Waiting]
    ;(connection.run(TAKE_SCRIPT, key, [sid, one.packed, one.bucket]) as Promise<TakeReply>).then(
      one.resolve,
      one.reject,
    )
    return
  }
  ;(
    connection.run(TAKE_MANY_SCRIPT, key, [
      sid,
      ...waiting.flatMap((w) => [w.packed, w.bucket]),
    ]) as Promise<TakeReply[]>
  ).then(
    (replies) => {
      waiting.forEach((w, i) => {
        w.resolve(replies[i] as TakeReply)
      })
    },
    (error: unknown) => {
      for (const w of waiting) w.reject(error)
    },
  )
}

const sendQueued = (connection: RedisStateContext['connection']): void => {
  const bySession = queues.get(connection)
  if (bySession === undefined) return
  queues.delete(connection)
  for (const [sid, waiting] of bySession) sendBatch(connection, sid, waiting)
}

/**
 * Most requests in one call. A poll's requests go out in parts of this many:
 * Redis starts on the first while the instance reads the rest, which answered
 * more requests a second than one call a poll (measured 4 to 64: decision 0069).
 */
const MAX_BATCH = 8

const queueTake = (
  connection: RedisStateContext['connection'],
  sid: string,
  packed: string,
  bucket: string,
): Promise<TakeReply> =>
  new Promise((resolve, reject) => {
    let bySession = queues.get(connection)
    if (bySession === undefined) {
      bySession = new Map()
      queues.set(connection, bySession)
      setImmediate(sendQueued, connection)
    }
    let waiting = bySession.get(sid)
    if (waiting === undefined) {
      waiting = []
      bySession.set(sid, waiting)
    }
    waiting.push({ packed, bucket, resolve, reject })
    if (waiting.length >= MAX_BATCH) {
      bySession.delete(sid)
      sendBatch(connection, sid, waiting)
    }
  })

/**
 * A request's one round trip (`take`, or `peek` for OPTIONS), with the other
 * requests of the session read in the same poll: checks the version the
 * instance read, counts the request, numbers it and reads the pets version.
 * An anonymous bucket is named as the in-memory limiter names it (one per
 * IPv4 address, one per IPv6 /64).
 *
 * @example
 * const reply = await countRequest(ctx, { sid, version, request, mode: 'take' })
 */
export const countRequest = async (
  ctx: RedisStateContext,
  input: {
    sid: string
    version: string
    request: Omit<TakeRequest, 'bannable'> & { bannable?: boolean | undefined }
    mode: 'take' | 'peek'
  },
): Promise<CountReply> => {
  const { request } = input
  const packed = `${input.version} ${ctx.realNow()} ${request.limits.perMinute} ${request.limits.perDay} ${request.now} ${request.bannable === true ? 1 : 0} ${ctx.banAfter === Number.POSITIVE_INFINITY ? -1 : ctx.banAfter} ${banEnd(request.now, ctx.banMs)} ${input.mode} ${ctx.maxAnonymousBuckets}`
  const reply = await queueTake(
    ctx.connection,
    input.sid,
    packed,
    anonymousBucketName(request.bucket),
  )
  if (typeof reply !== 'string') return { stale: reply[1] }
  const [, kind, minuteLeft, dayLeft, ban, seq, pv, position] = reply.split(' ') as string[]
  return {
    stale: undefined,
    decision: toDecision(
      [kind as string, Number(minuteLeft), Number(dayLeft), Number(ban)],
      request.limits,
      request.now,
    ),
    seq: Number(seq),
    pv: pv as string,
    position: Number(position),
  }
}

/**
 * The limiter alone, on one Redis hash: what the limiter's unit tests drive.
 *
 * @example
 * const limiter = createRedisLimiter(redis, 'limiter-case:1', { banAfter: 20 })
 */
export const createRedisLimiter = (
  redis: Redis,
  hash: string,
  options: RateLimitOptions & { maxAnonymousBuckets?: number } = {},
) => {
  const { banAfter, banMs } = resolveRateLimitOptions(options)
  const maxAnonymous = options.maxAnonymousBuckets ?? ANONYMOUS_BUCKET_CAP
  const call = async (args: (string | number)[]) => {
    try {
      return await redis.evalsha(LIMIT_SCRIPT.sha, 0, '', hash, ...args)
    } catch {
      return await redis.eval(LIMIT_SCRIPT.lua, 0, '', hash, ...args)
    }
  }
  return {
    async take(request: TakeRequest): Promise<RateLimitDecision> {
      const reply = (await call([
        anonymousBucketName(request.bucket),
        request.limits.perMinute,
        request.limits.perDay,
        request.now,
        request.bannable ? 1 : 0,
        banAfter === Number.POSITIVE_INFINITY ? -1 : banAfter,
        banEnd(request.now, banMs),
        'take',
        maxAnonymous,
      ])) as [string, number, number, number]
      return toDecision(reply, request.limits, request.now)
    },
    async peek(request: Omit<TakeRequest, 'bannable'>) {
      const reply = (await call([
        anonymousBucketName(request.bucket),
        request.limits.perMinute,
        request.limits.perDay,
        request.now,
        0,
        -1,
        0,
        'peek',
        maxAnonymous,
      ])) as [string, number, number, number]
      return { headers: toDecision(reply, request.limits, request.now).headers }
    },
    async reset() {
      await redis.del(hash, `${hash}:anon`)
    },
  }
}
