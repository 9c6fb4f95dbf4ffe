import type { RecordChange, SharedCollections } from '../../openapi/openapi-records.js'
import { StaleStateError } from '../stale-state.js'
import { PRELUDE, sessionKey } from './lua-prelude.js'
import { defineScript } from './redis-script.js'
import type { RedisStateContext } from './redis-state-context.js'

/**
 * A collection's changes and counter. ARGV: prefix, sid, key. Returns
 * {seq or false, id1, change1, id2, change2, …}.
 */
const READ_SCRIPT = defineScript(
  'oa-read',
  `${PRELUDE}
local seq = redis.call('GET', T .. 'seq:' .. ARGV[3])
local out = {seq or false}
for _, v in ipairs(redis.call('HGETALL', T .. 'st:' .. ARGV[3])) do out[#out + 1] = v end
return out
`,
)

/**
 * The next place of a collection, atomically: the counter starts after the
 * seed. ARGV: prefix, sid, key, seededNext. Returns it, or 0 when the session is gone.
 */
const TAKE_SCRIPT = defineScript(
  'oa-take',
  `${PRELUDE}
if redis.call('EXISTS', META) == 0 then return 0 end
local seqKey = T .. 'seq:' .. ARGV[3]
if not redis.call('GET', seqKey) then redis.call('SET', seqKey, num(tonumber(ARGV[4]) - 1)) end
redis.call('SADD', T .. 'stores', ARGV[3])
return redis.call('INCR', seqKey)
`,
)

/**
 * One record's change. ARGV: prefix, sid, key, id, change (JSON). Listed in
 * the session's `stores`, so a reset or a drop deletes it with the pets.
 * Returns 0 when the session is gone.
 */
const WRITE_SCRIPT = defineScript(
  'oa-write',
  `${PRELUDE}
if redis.call('EXISTS', META) == 0 then return 0 end
redis.call('HSET', T .. 'st:' .. ARGV[3], ARGV[4], ARGV[5])
redis.call('SADD', T .. 'stores', ARGV[3])
return 1
`,
)

/** A stored change as read back; anything unreadable stays as it is (the reader answers it 500). */
const parseChange = (text: string): RecordChange => {
  try {
    return JSON.parse(text) as RecordChange
  } catch {
    return { seq: Number.NaN, value: {} }
  }
}

/**
 * The OpenAPI document's records in Redis (decision 0049): per session and
 * collection key (`oa:<fingerprint>:<path>`), a hash of the records changed
 * over the seed (`st:<key>`: id → `{"seq","value"}`, `null` once deleted)
 * and the place counter (`seq:<key>`), both in the session's hash tag
 * (one node of a cluster) and listed in its `stores` (a reset or a drop
 * deletes them). Seeded records are computed in every instance.
 *
 * @example
 * const collections = createRedisCollections(ctx)
 * const next = await collections.take('default', key, 11)
 */
export const createRedisCollections = (ctx: RedisStateContext): SharedCollections => {
  const { connection } = ctx
  const { prefix } = connection
  return {
    async read(session, key) {
      const reply = (await connection.run(READ_SCRIPT, sessionKey(prefix, session), [
        session,
        key,
      ])) as (string | null)[]
      const changes = new Map<string, RecordChange>()
      for (let i = 1; i + 1 < reply.length; i += 2)
        changes.set(String(reply[i]), parseChange(String(reply[i + 1])))
      const seq = reply[0]
      return { nextSeq: typeof seq === 'string' ? Number(seq) + 1 : undefined, changes }
    },
    async take(session, key, seededNext) {
      const seq = (await connection.write(TAKE_SCRIPT, sessionKey(prefix, session), [
        session,
        key,
        seededNext,
      ])) as number
      if (seq === 0) throw new StaleStateError()
      return seq
    },
    async write(session, key, id, change) {
      const done = (await connection.write(WRITE_SCRIPT, sessionKey(prefix, session), [
        session,
        key,
        id,
        JSON.stringify(change),
      ])) as number
      if (done === 0) throw new StaleStateError()
    },
  }
}
