import { boundCapture } from '../../journal/bound-capture.js'
import type { JournalCapture, JournalEntry, JournalRecord } from '../../journal/journal.js'
import { toJournalEntry } from '../../journal/to-journal-entry.js'
import type { RecentRequests } from '../sandbox-state.js'
import { PRELUDE, sessionKey } from './lua-prelude.js'
import { defineScript } from './redis-script.js'
import type { RedisStateContext } from './redis-state-context.js'

/**
 * Records a session's journal entries under the numbers their requests
 * reserved (0: numbered here, for a request refused before its round trip),
 * unless the journal was cleared since; keeps the last `capacity`; first drops
 * the entries the server-wide budget evicted. ARGV: prefix, sid, capacity,
 * evictedCount, evicted seq…, then per entry: seq, entryJsonWithoutSeq (the
 * JSON object minus its opening brace). Returns each entry's number (0: not kept).
 */
const RECORD_SCRIPT = defineScript(
  'record',
  `${PRELUDE}
local out = {}
if redis.call('EXISTS', META) == 0 then return out end
local journal = T .. 'journal'
local first = 5 + tonumber(ARGV[4])
for i = 5, first - 1 do redis.call('ZREMRANGEBYSCORE', journal, ARGV[i], ARGV[i]) end
local cleared = tonumber(redis.call('HGET', META, 'jcleared'))
for i = first, #ARGV, 2 do
  local seq = tonumber(ARGV[i])
  if seq == 0 then seq = redis.call('HINCRBY', META, 'jseq', 1) end
  if seq > cleared then
    redis.call('ZADD', journal, seq, '{"seq":' .. num(seq) .. ',' .. ARGV[i + 1])
    out[#out + 1] = seq
  else
    out[#out + 1] = 0
  end
end
redis.call('ZREMRANGEBYRANK', journal, 0, -(tonumber(ARGV[3]) + 1))
return out
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

/** Some entries of a session's journal by number (false where gone). ARGV: prefix, sid, seq… */
const FETCH_SCRIPT = defineScript(
  'fetch',
  `${PRELUDE}
local out = {}
for i = 3, #ARGV do
  local found = redis.call('ZRANGEBYSCORE', T .. 'journal', ARGV[i], ARGV[i])
  out[#out + 1] = found[1] or false
end
return out
`,
)

/**
 * Replaces an entry by its aborted version (decision 0032), if the journal
 * still holds it. ARGV: prefix, sid, seq, entryJson.
 */
const ABORT_SCRIPT = defineScript(
  'abort',
  `${PRELUDE}
local journal, seq = T .. 'journal', tonumber(ARGV[3])
if redis.call('ZCOUNT', journal, seq, seq) == 0 then return 0 end
redis.call('ZREMRANGEBYSCORE', journal, seq, seq)
redis.call('ZADD', journal, seq, ARGV[4])
return 1
`,
)

/** Drops entries the server-wide budget evicted. ARGV: prefix, sid, seq… */
const EVICT_SCRIPT = defineScript(
  'evict',
  `${PRELUDE}
for i = 3, #ARGV do redis.call('ZREMRANGEBYSCORE', T .. 'journal', ARGV[i], ARGV[i]) end
return 1
`,
)

/**
 * The feed's keys share the hash tag `{~feed}`: one stream of every session's
 * answers, in the order they were recorded (`requests`: session, number,
 * bytes and a running count `n`), its bytes (`bytes`) and the count (`n`).
 */
const FEED_PRELUDE = `
local F = ARGV[1] .. '{~feed}:'
local STREAM, BYTES, COUNT = F .. 'requests', F .. 'bytes', F .. 'n'
`

/**
 * The server-wide budget: appends entries (session, number, bytes) and
 * trims the oldest while the entries or the bytes pass the budget; returns
 * the evicted ones (session, number, …), which the caller drops from their
 * sessions. ARGV: prefix, maxEntries, maxBytes, then per entry: sid, seq, bytes.
 */
const LEDGER_SCRIPT = defineScript(
  'ledger',
  `${FEED_PRELUDE}
local maxEntries, maxBytes = tonumber(ARGV[2]), tonumber(ARGV[3])
local total = tonumber(redis.call('GET', BYTES) or '0')
for i = 4, #ARGV, 3 do
  local n = redis.call('INCR', COUNT)
  redis.call('XADD', STREAM, '*', 's', ARGV[i], 'q', ARGV[i + 1], 'b', ARGV[i + 2], 'n', n)
  total = total + tonumber(ARGV[i + 2])
end
local evicted = {}
local held = redis.call('XLEN', STREAM)
while held > 0 and (held > maxEntries or total > maxBytes) do
  local oldest = redis.call('XRANGE', STREAM, '-', '+', 'COUNT', 32)
  for _, item in ipairs(oldest) do
    if held <= maxEntries and total <= maxBytes then break end
    local f = {}
    for j = 1, #item[2], 2 do f[item[2][j]] = item[2][j + 1] end
    redis.call('XDEL', STREAM, item[1])
    held = held - 1
    total = total - tonumber(f.b)
    evicted[#evicted + 1] = f.s
    evicted[#evicted + 1] = f.q
  end
end
if total < 0 then total = 0 end
redis.call('SET', BYTES, string.format('%.0f', total))
return evicted
`,
)

/**
 * The newest entries after a cursor, at most `max`: {count, cursorCount, id, s, q, n, …}.
 * ARGV: prefix, afterId ('' for none), max.
 */
const RECENT_SCRIPT = defineScript(
  'recent',
  `${FEED_PRELUDE}
local items
if ARGV[2] == '' then
  items = redis.call('XREVRANGE', STREAM, '+', '-', 'COUNT', tonumber(ARGV[3]))
else
  items = redis.call('XREVRANGE', STREAM, '+', '(' .. ARGV[2], 'COUNT', tonumber(ARGV[3]))
end
local out = {redis.call('GET', COUNT) or '0'}
for _, item in ipairs(items) do
  local f = {}
  for j = 1, #item[2], 2 do f[item[2][j]] = item[2][j + 1] end
  out[#out + 1] = item[1]
  out[#out + 1] = f.s
  out[#out + 1] = f.q
  out[#out + 1] = f.n
end
return out
`,
)

/** The request journal of the Redis state. */
export interface RedisJournal {
  /**
   * Journals an answered request, behind the answer: the record is returned
   * at once and written right after (pipelined, never waited on: a request
   * makes no Redis call of its own for its journal). `seq` is the number its round trip reserved; without one
   * (a request refused before it) Redis numbers the entry, and the returned
   * record says 0.
   */
  record(sid: string, seq: number | undefined, capture: JournalCapture): JournalRecord
  list(sid: string): Promise<JournalEntry[]>
  /**
   * Marks a record `aborted` (the client gave up on its held answer): in the
   * batch still to be written, or in the store (decision 0032).
   */
  markAborted(sid: string, record: JournalRecord): Promise<void>
  /** The newest answers of every instance after a cursor (the dashboard's feed). */
  recent(cursor: string | undefined, max: number): Promise<RecentRequests>
}

/** How long evictions wait for a write to the same session to ride on (ms). */
const EVICT_DELAY_MS = 200

/** A cursor: the feed stream's id and the running count there. */
const parseCursor = (cursor: string | undefined): { id: string; n: number } | undefined => {
  const match = cursor === undefined ? null : /^([0-9]+-[0-9]+)\/([0-9]+)$/.exec(cursor)
  return match === null ? undefined : { id: match[1] as string, n: Number(match[2]) }
}

/**
 * The journal on Redis (decision 0024). Each session's entries, redacted,
 * in one sorted set of its slot (at most `journalSize`), and one feed of
 * every session's answers in a slot of its own: the server-wide budget
 * (`journalMaxEntries`, `journalMaxBytes`, counted over the stored JSON) and
 * what every instance's dashboard polls. Entries evicted by the budget leave
 * their sessions right after. Writes go out once the request's own work is
 * done (`process.nextTick`, a batch per session for the records of that
 * moment), before the answer is written and on the connection a control call
 * to that session reads from: a control call after an answer finds its entry.
 *
 * @example
 * const journal = createRedisJournal(ctx)
 * const record = journal.record('default', 7, capture)
 */
export const createRedisJournal = (
  ctx: RedisStateContext & { journalMaxEntries: number; journalMaxBytes: number },
): RedisJournal => {
  const { connection, journalSize, journalMaxEntries, journalMaxBytes } = ctx
  const keeps = journalSize > 0 && journalMaxEntries > 0 && journalMaxBytes > 0
  const keyOf = (sid: string) => sessionKey(connection.prefix, sid)
  const feedKey = `${connection.prefix}{~feed}:requests`
  let pending = new Map<string, JournalRecord[]>()
  let scheduled = false
  let order = 0

  /** Entries the budget evicted, per session: dropped with the session's next write, or soon. */
  let evictions = new Map<string, string[]>()
  let evictTimer: ReturnType<typeof setTimeout> | undefined
  const sendEvictions = (): void => {
    evictTimer = undefined
    const due = evictions
    evictions = new Map()
    for (const [sid, seqs] of due) connection.send(EVICT_SCRIPT, keyOf(sid), [sid, ...seqs])
  }
  const evict = (evicted: string[]): void => {
    for (let i = 0; i < evicted.length; i += 2) {
      const sid = evicted[i] as string
      let seqs = evictions.get(sid)
      if (seqs === undefined) {
        seqs = []
        evictions.set(sid, seqs)
      }
      seqs.push(evicted[i + 1] as string)
    }
    if (evictions.size > 0 && evictTimer === undefined) {
      evictTimer = setTimeout(sendEvictions, EVICT_DELAY_MS)
      evictTimer.unref()
    }
  }
  const ledger = (entries: (string | number)[]): void => {
    if (entries.length === 0) return
    ;(
      connection.run(LEDGER_SCRIPT, feedKey, [
        journalMaxEntries,
        journalMaxBytes,
        ...entries,
      ]) as Promise<string[]>
    ).then(evict, () => {})
  }

  const flush = (): void => {
    scheduled = false
    const batch = pending
    pending = new Map()
    // Every numbered entry of the moment in one call to the budget.
    const numbered: (string | number)[] = []
    for (const [sid, records] of batch) {
      const evicted = evictions.get(sid) ?? []
      evictions.delete(sid)
      const args: (string | number)[] = [sid, journalSize, evicted.length, ...evicted]
      const sizes: number[] = []
      for (const record of records) {
        const json = JSON.stringify(toJournalEntry(record)).replace(/^\{"seq":[0-9]+,/, '')
        const bytes = Buffer.byteLength(json)
        args.push(record.seq, json)
        sizes.push(bytes)
        if (record.seq > 0) numbered.push(sid, record.seq, bytes)
      }
      const written = connection.run(RECORD_SCRIPT, keyOf(sid), args) as Promise<number[]>
      // Those Redis numbered go to the budget once it has.
      if (records.some((record) => record.seq === 0))
        written.then(
          (seqs) => {
            const late: (string | number)[] = []
            seqs.forEach((seq, i) => {
              if (seq > 0 && records[i]?.seq === 0) late.push(sid, seq, sizes[i] as number)
            })
            ledger(late)
          },
          () => {},
        )
      else written.catch(() => {})
    }
    ledger(numbered)
  }

  return {
    record(sid, seq, capture) {
      const record = boundCapture(capture)
      record.seq = seq ?? 0
      record.order = ++order
      if (!keeps) return record
      let list = pending.get(sid)
      if (list === undefined) {
        list = []
        pending.set(sid, list)
      }
      list.push(record)
      if (!scheduled) {
        scheduled = true
        process.nextTick(flush)
      }
      return record
    },
    async markAborted(sid, record) {
      record.aborted = true
      // Still in the batch: it is written aborted. Numbered by Redis (0): a held answer never is.
      if (!keeps || record.seq <= 0 || pending.get(sid)?.includes(record) === true) return
      await connection.run(ABORT_SCRIPT, keyOf(sid), [
        sid,
        record.seq,
        JSON.stringify(toJournalEntry(record)),
      ])
    },
    async list(sid) {
      const rows = (await connection.run(JOURNAL_SCRIPT, keyOf(sid), [sid])) as string[]
      return rows.map((row) => JSON.parse(row) as JournalEntry)
    },
    async recent(cursor, max) {
      const after = parseCursor(cursor)
      const reply = (await connection.run(RECENT_SCRIPT, feedKey, [
        after?.id ?? '',
        Math.max(1, max),
      ])) as string[]
      const count = Number(reply[0])
      const items: { id: string; sid: string; seq: string; n: number }[] = []
      for (let i = 1; i < reply.length; i += 4)
        items.push({
          id: reply[i] as string,
          sid: reply[i + 1] as string,
          seq: reply[i + 2] as string,
          n: Number(reply[i + 3]),
        })
      items.reverse()
      // Each session's entries in one call to its slot.
      const bySession = new Map<string, string[]>()
      for (const item of items)
        bySession.set(item.sid, [...(bySession.get(item.sid) ?? []), item.seq])
      const found = new Map<string, string>()
      await Promise.all(
        [...bySession].map(async ([sid, seqs]) => {
          const rows = (await connection.run(FETCH_SCRIPT, keyOf(sid), [sid, ...seqs])) as (
            | string
            | null
          )[]
          rows.forEach((row, i) => {
            if (row !== null) found.set(`${sid}\n${seqs[i]}`, row)
          })
        }),
      )
      const entries: JournalEntry[] = []
      for (const item of items) {
        const row = found.get(`${item.sid}\n${item.seq}`)
        if (row !== undefined) entries.push(JSON.parse(row) as JournalEntry)
      }
      const newest = items.at(-1)
      const next = newest === undefined ? (after ?? { id: '0-0', n: count }) : newest
      return {
        entries,
        cursor: `${next.id}/${next.n}`,
        skipped: after === undefined ? 0 : Math.max(0, next.n - after.n - entries.length),
      }
    },
  }
}
