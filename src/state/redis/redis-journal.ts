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
 * evictedCount, evicted ranges (first, last)…, then per entry: seq, entryJson (whose `seq` is
 * that number; `{"seq":0,…` when Redis numbers it). Returns each entry's number (0: not kept).
 */
const RECORD_SCRIPT = defineScript(
  'record',
  `${PRELUDE}
local out = {}
if redis.call('EXISTS', META) == 0 then return out end
local journal = T .. 'journal'
local first = 5 + tonumber(ARGV[4])
for i = 5, first - 1, 2 do redis.call('ZREMRANGEBYSCORE', journal, ARGV[i], ARGV[i + 1]) end
local cleared = tonumber(redis.call('HGET', META, 'jcleared'))
local pairs = {}
for i = first, #ARGV, 2 do
  local seq, entry = tonumber(ARGV[i]), ARGV[i + 1]
  if seq == 0 then
    seq = redis.call('HINCRBY', META, 'jseq', 1)
    entry = '{"seq":' .. num(seq) .. string.sub(entry, 9)
  end
  if seq > cleared then
    pairs[#pairs + 1] = seq
    pairs[#pairs + 1] = entry
    out[#out + 1] = seq
  else
    out[#out + 1] = 0
  end
end
-- One ZADD for the batch (in parts: unpack has a bound).
for i = 1, #pairs, 400 do
  redis.call('ZADD', journal, unpack(pairs, i, math.min(i + 399, #pairs)))
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

/** Drops entries the server-wide budget evicted. ARGV: prefix, sid, ranges (first, last)… */
const EVICT_SCRIPT = defineScript(
  'evict',
  `${PRELUDE}
for i = 3, #ARGV, 2 do redis.call('ZREMRANGEBYSCORE', T .. 'journal', ARGV[i], ARGV[i + 1]) end
return 1
`,
)

/**
 * The feed's keys share the hash tag `{~feed}`: one stream of every session's
 * answers, in the order they were recorded (`requests`), the entries and
 * bytes it holds (`held`, `bytes`) and a running count (`n`). A stream item is
 * one batch of one session (decision 0063): `s` the session, `q` its entries'
 * numbers separated by spaces, `c` how many, `b` their bytes, `n` the running
 * count at its last entry. Items written before 0063 hold one entry and no `c`.
 */
const FEED_PRELUDE = `
local F = ARGV[1] .. '{~feed}:'
local STREAM, BYTES, COUNT, HELD = F .. 'requests', F .. 'bytes', F .. 'n', F .. 'held'
local function fields(item)
  local f = {}
  for j = 1, #item[2], 2 do f[item[2][j]] = item[2][j + 1] end
  f.c = tonumber(f.c or '1')
  return f
end
`

/**
 * The server-wide budget: appends one item per batch of a session (session,
 * numbers, count, bytes) and drops the oldest items while the entries or the
 * bytes pass the budget (a whole item at a time: the journal may hold less
 * than the budget, never more); returns the evicted ones (session, numbers,
 * …), which the caller drops from their sessions. ARGV: prefix, maxEntries,
 * maxBytes, then per batch: sid, seqs (space-separated), count, bytes.
 */
const LEDGER_SCRIPT = defineScript(
  'ledger',
  `${FEED_PRELUDE}
local maxEntries, maxBytes = tonumber(ARGV[2]), tonumber(ARGV[3])
local total = tonumber(redis.call('GET', BYTES) or '0')
local held = tonumber(redis.call('GET', HELD) or redis.call('XLEN', STREAM))
for i = 4, #ARGV, 4 do
  local c = tonumber(ARGV[i + 2])
  local n = redis.call('INCRBY', COUNT, c)
  redis.call('XADD', STREAM, '*', 's', ARGV[i], 'q', ARGV[i + 1], 'c', c, 'b', ARGV[i + 3], 'n', n)
  held = held + c
  total = total + tonumber(ARGV[i + 3])
end
local evicted = {}
local last = nil
while held > 0 and (held > maxEntries or total > maxBytes) do
  local oldest = redis.call('XRANGE', STREAM, last and ('(' .. last) or '-', '+', 'COUNT', 16)
  if #oldest == 0 then held = 0; total = 0; break end
  for _, item in ipairs(oldest) do
    if held <= maxEntries and total <= maxBytes then break end
    local f = fields(item)
    last = item[1]
    held = held - f.c
    total = total - tonumber(f.b)
    evicted[#evicted + 1] = f.s
    evicted[#evicted + 1] = f.q
  end
end
-- Everything up to the last evicted item in one trim (XTRIM MINID keeps ids from the one given).
if last then
  local ms, sq = string.match(last, '^(%d+)-(%d+)$')
  redis.call('XTRIM', STREAM, 'MINID', ms .. '-' .. string.format('%.0f', tonumber(sq) + 1))
end
if total < 0 then total = 0 end
if held < 0 then held = 0 end
redis.call('SET', BYTES, string.format('%.0f', total))
redis.call('SET', HELD, string.format('%.0f', held))
return evicted
`,
)

/**
 * The newest items after a cursor, at most `max` (each holds one entry or
 * more): {count, id, s, q, n, …}. ARGV: prefix, afterId ('' for none), max.
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
  local f = fields(item)
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
   * at once and written in the same turn of the event loop, with the other
   * entries of that turn (one call a session), before any later request or
   * control call of this instance is read. `seq` is the number its round trip
   * reserved; without one (a request refused before it) Redis numbers the
   * entry, and the returned record says 0.
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

/** Numbers as runs of consecutive ones: first, last, first, last… (one ZREMRANGEBYSCORE a run). */
const toRanges = (seqs: number[]): number[] => {
  const sorted = seqs.sort((a, b) => a - b)
  const ranges: number[] = []
  for (const seq of sorted) {
    if (ranges.length > 0 && seq <= (ranges[ranges.length - 1] as number) + 1)
      ranges[ranges.length - 1] = Math.max(seq, ranges[ranges.length - 1] as number)
    else ranges.push(seq, seq)
  }
  return ranges
}

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
  let evictions = new Map<string, number[]>()
  let evictTimer: ReturnType<typeof setTimeout> | undefined
  const sendEvictions = (): void => {
    evictTimer = undefined
    const due = evictions
    evictions = new Map()
    for (const [sid, seqs] of due)
      connection.send(EVICT_SCRIPT, keyOf(sid), [sid, ...toRanges(seqs)])
  }
  const evict = (evicted: string[]): void => {
    // Pairs of session and numbers (space-separated: one batch each).
    for (let i = 0; i < evicted.length; i += 2) {
      const sid = evicted[i] as string
      let seqs = evictions.get(sid)
      if (seqs === undefined) {
        seqs = []
        evictions.set(sid, seqs)
      }
      for (const seq of (evicted[i + 1] as string).split(' ')) seqs.push(Number(seq))
    }
    if (evictions.size > 0 && evictTimer === undefined) {
      evictTimer = setTimeout(sendEvictions, EVICT_DELAY_MS)
      evictTimer.unref()
    }
  }
  /** Batches to the budget: per session, its numbers (space-separated), how many and their bytes. */
  const ledger = (batches: (string | number)[]): void => {
    if (batches.length === 0) return
    ;(
      connection.run(LEDGER_SCRIPT, feedKey, [
        journalMaxEntries,
        journalMaxBytes,
        ...batches,
      ]) as Promise<string[]>
    ).then(evict, () => {})
  }
  /** A session's kept entries as one batch of the budget. */
  const batchOf = (sid: string, seqs: number[], bytes: number): (string | number)[] =>
    seqs.length === 0 ? [] : [sid, seqs.join(' '), seqs.length, bytes]

  const flush = (): void => {
    scheduled = false
    const batch = pending
    pending = new Map()
    // Every numbered entry of the moment in one call to the budget, a batch per session.
    const numbered: (string | number)[] = []
    for (const [sid, records] of batch) {
      const evicted = toRanges(evictions.get(sid) ?? [])
      evictions.delete(sid)
      const args: (string | number | Buffer)[] = [sid, journalSize, evicted.length, ...evicted]
      const sizes: number[] = []
      const seqs: number[] = []
      let bytes = 0
      for (const record of records) {
        // Encoded here, once: ioredis then copies bytes (a redacted value's `…`
        // makes the text two-byte, which the socket would encode again, whole).
        const json = Buffer.from(JSON.stringify(toJournalEntry(record)))
        args.push(record.seq, json)
        sizes.push(json.length)
        if (record.seq > 0) {
          seqs.push(record.seq)
          bytes += json.length
        }
      }
      numbered.push(...batchOf(sid, seqs, bytes))
      const written = connection.run(RECORD_SCRIPT, keyOf(sid), args) as Promise<number[]>
      // Those Redis numbered go to the budget once it has.
      if (seqs.length < records.length)
        written.then(
          (kept) => {
            const late: number[] = []
            let lateBytes = 0
            kept.forEach((seq, i) => {
              if (seq > 0 && records[i]?.seq === 0) {
                late.push(seq)
                lateBytes += sizes[i] as number
              }
            })
            ledger(batchOf(sid, late, lateBytes))
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
      const items: { id: string; n: number }[] = []
      // Each item's entries, oldest first; at most the newest `max` of them.
      const listed: { sid: string; seq: string }[] = []
      for (let i = reply.length - 4; i >= 1; i -= 4) {
        items.push({ id: reply[i] as string, n: Number(reply[i + 3]) })
        const sid = reply[i + 1] as string
        for (const seq of (reply[i + 2] as string).split(' ')) listed.push({ sid, seq })
      }
      const wanted = listed.slice(Math.max(0, listed.length - Math.max(1, max)))
      // Each session's entries in one call to its slot.
      const bySession = new Map<string, string[]>()
      for (const { sid, seq } of wanted) {
        let seqs = bySession.get(sid)
        if (seqs === undefined) {
          seqs = []
          bySession.set(sid, seqs)
        }
        seqs.push(seq)
      }
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
      for (const { sid, seq } of wanted) {
        const row = found.get(`${sid}\n${seq}`)
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
