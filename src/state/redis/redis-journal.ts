import type { JournalEntry } from '../../journal/journal.js'
import { PRELUDE } from './lua-prelude.js'
import { defineScript } from './redis-script.js'
import type { RedisStateContext } from './redis-state-context.js'

/** Records a journal entry unless the journal was cleared after its number was taken. ARGV: prefix, sid, seq, json, capacity. */
const RECORD_SCRIPT = defineScript(
  'record',
  `${PRELUDE}
local sid, seq = ARGV[2], tonumber(ARGV[3])
local meta = S(sid, 'meta')
local cleared = tonumber(redis.call('HGET', meta, 'jcleared') or '-1')
if cleared < 0 or seq <= cleared then return 0 end
local journal = S(sid, 'journal')
redis.call('ZADD', journal, seq, ARGV[4])
redis.call('ZREMRANGEBYRANK', journal, 0, -(tonumber(ARGV[5]) + 1))
return 1
`,
)

/** A journal number for a request that took none (refused before the quota). ARGV: prefix, sid. */
const NEXT_SEQ_SCRIPT = defineScript(
  'next-seq',
  `${PRELUDE}
if redis.call('EXISTS', S(ARGV[2], 'meta')) == 0 then return 0 end
return redis.call('HINCRBY', S(ARGV[2], 'meta'), 'jseq', 1)
`,
)

/** The journal after its last clear. ARGV: prefix, sid. */
const JOURNAL_SCRIPT = defineScript(
  'journal',
  `${PRELUDE}
local cleared = redis.call('HGET', S(ARGV[2], 'meta'), 'jcleared') or '0'
return redis.call('ZRANGEBYSCORE', S(ARGV[2], 'journal'), '(' .. cleared, '+inf')
`,
)

/** The request journal of the Redis state: one sorted set per session, capped at `journalSize`. */
export interface RedisJournal {
  /** Records an answered request under the number its round trip reserved (or a new one). */
  record(
    sid: string,
    seq: number | undefined,
    entry: Omit<JournalEntry, 'seq'>,
  ): Promise<JournalEntry>
  list(sid: string): Promise<JournalEntry[]>
}

/**
 * The journal on Redis. An entry is written behind the answer (sent, not
 * awaited; its number was reserved by the request's round trip): it costs no
 * round trip, and one lost while Redis is down is no lost data. It is sent
 * before the response is written, on the instance's one connection, so a
 * control call after the answer finds it.
 *
 * @example
 * const journal = createRedisJournal(ctx)
 * await journal.record('default', 7, entry)
 */
export const createRedisJournal = (ctx: RedisStateContext): RedisJournal => {
  const { connection, journalSize } = ctx
  return {
    async record(sid, seq, entry) {
      let number = seq
      if (number === undefined) {
        number = Number(await connection.run(NEXT_SEQ_SCRIPT, [sid]).catch(() => 0))
      }
      const stored: JournalEntry = { seq: number, ...entry }
      if (number > 0 && journalSize > 0) {
        connection
          .run(RECORD_SCRIPT, [sid, number, JSON.stringify(stored), journalSize])
          .catch(() => {})
      }
      return stored
    },
    async list(sid) {
      const rows = (await connection.run(JOURNAL_SCRIPT, [sid])) as string[]
      return rows.map((row) => JSON.parse(row) as JournalEntry)
    },
  }
}
