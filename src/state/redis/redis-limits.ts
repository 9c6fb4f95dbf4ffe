import type { Redis } from 'ioredis'
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
import { PRELUDE } from './lua-prelude.js'
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
const LIMIT_SCRIPT = defineScript(
  'limit',
  `
local function num(x) return string.format('%.0f', x) end
${LIMITER}
return limit(ARGV[1] .. ARGV[2], ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]),
  ARGV[7] == '1', tonumber(ARGV[8]), tonumber(ARGV[9]), ARGV[10])
`,
)

/**
 * The hot path, one round trip per request: checks that what the instance
 * read from its cache (session version, key index version) is current, marks
 * the session used, counts the request (or peeks), reserves its journal
 * number and reads the pets version.
 * ARGV: prefix, sid, cachedV, cachedKv, realNow, ttl, bucket, perMinute,
 * perDay, now, bannable, banAfter, banEndAt, mode.
 * Returns {'stale', load} or {'ok', kind, minuteLeft, dayLeft, banEndsAt, seq, pv, droppedIds}.
 */
const TAKE_SCRIPT = defineScript(
  'take',
  `${PRELUDE}${LIMITER}
local sid = ARGV[2]
local meta = S(sid, 'meta')
local v = redis.call('HGET', meta, 'v')
local kv = redis.call('GET', P .. 'keyindex:v') or '0'
if v ~= ARGV[3] or kv ~= ARGV[4] then return {'stale', load(sid, ARGV[4])} end
local now = tonumber(ARGV[5])
local dropped = {}
if sid ~= 'default' then dropped = sweep(now, tonumber(ARGV[6])) end
redis.call('ZADD', Z, now, sid)
local r = limit(S(sid, 'rl'), ARGV[7], tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10]),
  ARGV[11] == '1', tonumber(ARGV[12]), tonumber(ARGV[13]), ARGV[14])
local seq = redis.call('HINCRBY', meta, 'jseq', 1)
return {'ok', r[1], r[2], r[3], r[4], seq, redis.call('HGET', meta, 'pv'), dropped}
`,
)

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
  | { stale: undefined; decision: RateLimitDecision; seq: number; pv: string; dropped: string[] }

/**
 * A request's one round trip (`take`, or `peek` for OPTIONS): checks the
 * versions the instance read, counts the request, reserves its journal
 * number and reads the pets version.
 *
 * @example
 * const reply = await countRequest(ctx, { sid, v, kv, request, mode: 'take' })
 */
export const countRequest = async (
  ctx: RedisStateContext,
  input: {
    sid: string
    v: string
    kv: string
    request: Omit<TakeRequest, 'bannable'> & { bannable?: boolean | undefined }
    mode: 'take' | 'peek'
  },
): Promise<CountReply> => {
  const { request } = input
  const reply = (await ctx.connection.run(TAKE_SCRIPT, [
    input.sid,
    input.v,
    input.kv,
    ctx.realNow(),
    ctx.sessionTtlMs,
    request.bucket,
    request.limits.perMinute,
    request.limits.perDay,
    request.now,
    request.bannable === true ? 1 : 0,
    ctx.banAfter === Number.POSITIVE_INFINITY ? -1 : ctx.banAfter,
    banEnd(request.now, ctx.banMs),
    input.mode,
  ])) as ['stale', LoadReply] | ['ok', string, number, number, number, number, string, string[]]
  if (reply[0] === 'stale') return { stale: reply[1] }
  const [, kind, minuteLeft, dayLeft, ban, seq, pv, dropped] = reply
  return {
    stale: undefined,
    decision: toDecision([kind, minuteLeft, dayLeft, ban], request.limits, request.now),
    seq,
    pv,
    dropped,
  }
}

/**
 * The limiter alone, on one Redis hash: what the limiter's unit tests drive.
 *
 * @example
 * const limiter = createRedisLimiter(redis, 'limiter-case:1', { banAfter: 20 })
 */
export const createRedisLimiter = (redis: Redis, hash: string, options: RateLimitOptions = {}) => {
  const { banAfter, banMs } = resolveRateLimitOptions(options)
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
