import type { JournalEntry } from '../../journal/journal.js'
import { PRELUDE, sessionKey } from './lua-prelude.js'
import { defineScript } from './redis-script.js'
import type { RedisStateContext } from './redis-state-context.js'

/**
 * Records a journal entry under the number its request reserved (0: numbered
 * here, for a request refused before its round trip), unless the journal was
 * cleared since; keeps the last `capacity`. ARGV: prefix, sid, seq,
 * entryJsonWithoutSeq (the JSON object minus its opening brace), capacity.
 */
const RECORD_SCRIPT = defineScript(
  'record',
  `${PRELUDE}
if redis.call('EXISTS', META) == 0 then return 0 end
local seq = tonumber(ARGV[3])
if seq == 0 then seq = redis.call('HINCRBY', META, 'jseq', 1) end
if seq <= tonumber(redis.call('HGET', META, 'jcleared')) then return 0 end
local journal = T .. 'journal'
redis.call('ZADD', journal, seq, '{"seq":' .. num(seq) .. ',' .. ARGV[4])
redis.call('ZREMRANGEBYRANK', journal, 0, -(tonumber(ARGV[5]) + 1))
return seq
`,
)

/** The journal after its last clear. ARGV: prefix, sid. */
const JOURNAL_SCRIPT = defineScript(
  'journal',
  `${PRELUDE}
local cleared = redis.call('HGET', META, 'jcleared') or '0'
return redis.call('ZRANGEBYSCORE', T .. 'journal', '(' .. cleared, '+inf')
`,
)

/** The request journal of the Redis state: one sorted set per session, capped at `journalSize`. */
export interface RedisJournal {
  /**
   * Records an answered request, behind the answer: never waited on, so a
   * request makes no Redis call for its journal entry. `seq` is the number
   * its round trip reserved; without one (a request refused before it, e.g.
   * while Redis is away) Redis numbers the entry, and the returned copy says 0.
   */
  record(sid: string, seq: number | undefined, entry: Omit<JournalEntry, 'seq'>): JournalEntry
  list(sid: string): Promise<JournalEntry[]>
}

/**
 * The journal on Redis. An entry costs no round trip, and one lost while
 * Redis is down is no lost data. It is sent before the response is written,
 * on the instance's connection to the session's node, so a control call after
 * the answer finds it.
 *
 * @example
 * const journal = createRedisJournal(ctx)
 * journal.record('default', 7, entry)
 */
export const createRedisJournal = (ctx: RedisStateContext): RedisJournal => {
  const { connection, journalSize } = ctx
  return {
    record(sid, seq, entry) {
      const stored: JournalEntry = { seq: seq ?? 0, ...entry }
      if (journalSize > 0) {
        connection.send(RECORD_SCRIPT, sessionKey(connection.prefix, sid), [
          sid,
          seq ?? 0,
          JSON.stringify(entry).slice(1),
          journalSize,
        ])
      }
      return stored
    },
    async list(sid) {
      const rows = (await connection.run(JOURNAL_SCRIPT, sessionKey(connection.prefix, sid), [
        sid,
      ])) as string[]
      return rows.map((row) => JSON.parse(row) as JournalEntry)
    },
  }
}
