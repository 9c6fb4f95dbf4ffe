import { boundCapture } from '../../journal/bound-capture.js'
import type { JournalCapture, JournalEntry, JournalRecord } from '../../journal/journal.js'
import { toJournalEntry } from '../../journal/to-journal-entry.js'
import type { RecentRequests } from '../sandbox-state.js'
import { createJournalBarrier } from './journal-barrier.js'
import { PRELUDE, sessionKey } from './lua-prelude.js'
import { defineScript } from './redis-script.js'
import type { RedisStateContext } from './redis-state-context.js'

/**
 * Records a session's journal entries under the numbers their requests
 * reserved (0: numbered here, for a request refused before its round trip),
 * unless the journal was cleared since; keeps the last `capacity`; first drops
 * the entries the server-wide budget evicted. ARGV: prefix, sid, capacity,
 * evictedCount, evicted ranges (first, last)…, then per entry: seq, epoch (the session's
 * when its request was counted, '' when unknown: an entry of a session since dropped and
 * opened again, or reset, is not kept), entryJson (whose `seq` is that number;
 * `{"seq":0,…` when Redis numbers it). Returns each entry's number (0: not kept).
 */
const RECORD_SCRIPT = defineScript(
  'record',
  `${PRELUDE}
local out = {}
if redis.call('EXISTS', META) == 0 then return out end
local journal = T .. 'journal'
local first = 5 + tonumber(ARGV[4])
for i = 5, first - 1, 2 do redis.call('ZREMRANGEBYSCORE', journal, ARGV[i], ARGV[i + 1]) end
local m = redis.call('HMGET', META, 'jcleared', 'epoch')
local cleared, epoch = tonumber(m[1]), m[2]
local pairs = {}
for i = first, #ARGV, 3 do
  local seq, entry = tonumber(ARGV[i]), ARGV[i + 2]
  local current = ARGV[i + 1] == '' or ARGV[i + 1] == epoch
  if seq == 0 and current then
    seq = redis.call('HINCRBY', META, 'jseq', 1)
    entry = '{"seq":' .. num(seq) .. string.sub(entry, 9)
  end
  if current and seq > cleared then
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
 * still holds it (in the same epoch). ARGV: prefix, sid, seq, entryJson, epoch.
 */
const ABORT_SCRIPT = defineScript(
  'abort',
  `${PRELUDE}
if ARGV[5] ~= '' and redis.call('HGET', META, 'epoch') ~= ARGV[5] then return 0 end
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
 * maxBytes, then per batch: sid, seqs (space-separated), count, bytes, and
 * how many answers of that session were left out before the write (they
 * count in the running count: the dashboard says they were skipped).
 */
const LEDGER_SCRIPT = defineScript(
  'ledger',
  `${FEED_PRELUDE}
local maxEntries, maxBytes = tonumber(ARGV[2]), tonumber(ARGV[3])
local total = tonumber(redis.call('GET', BYTES) or '0')
local held = tonumber(redis.call('GET', HELD) or redis.call('XLEN', STREAM))
for i = 4, #ARGV, 5 do
  local c = tonumber(ARGV[i + 2])
  local n = redis.call('INCRBY', COUNT, c + tonumber(ARGV[i + 4]))
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
   * Journals an answered request: the record is returned at once and held by
   * this instance for at most `flushMs` (decision 0069), then written with
   * the others it holds, one call a session. `seq` is the number its round
   * trip reserved; without one (a request refused before it) Redis numbers
   * the entry, and the returned record says 0.
   */
  record(
    sid: string,
    seq: number | undefined,
    capture: JournalCapture,
    /** The session's epoch when the request was counted: a write to a session dropped and opened again since is not kept. */
    epoch?: string | undefined,
  ): JournalRecord
  /** A session's journal, once every instance has written what it held of it. */
  list(sid: string): Promise<JournalEntry[]>
  /**
   * Marks a record `aborted` (the client gave up on its held answer): in the
   * batch still to be written, or in the store (decision 0032).
   */
  markAborted(sid: string, record: JournalRecord): Promise<void>
  /** The newest answers of every instance after a cursor (the dashboard's feed). */
  recent(cursor: string | undefined, max: number): Promise<RecentRequests>
  /** Has every instance write what it holds of a session (undefined: of all), as a read does first. */
  settle(sid: string | undefined): Promise<void>
  /** Subscribes to the other instances' asks (after the connection is up). */
  start(): Promise<void>
  /** Writes what this instance holds and stops answering asks. */
  close(): Promise<void>
}

/** How long an instance holds its journal entries before writing them, by default (ms). */
export const DEFAULT_JOURNAL_FLUSH_MS = 1_000

/** One session's entries this instance holds, and how many it left out as the write would have trimmed them. */
interface Held {
  records: JournalRecord[]
  skipped: number
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
 * their sessions right after. An instance holds its entries for at most
 * `journalFlushMs` (or until it holds too many), leaves out those the write
 * would trim at once, and writes the rest in one call a session (decision
 * 0069). Every read first has every live instance write what it holds
 * (journal-barrier.ts): a control call after an answer finds its entry,
 * whichever instance answered.
 *
 * @example
 * const journal = createRedisJournal(ctx)
 * const record = journal.record('default', 7, capture)
 */
export const createRedisJournal = (
  ctx: RedisStateContext & {
    journalMaxEntries: number
    journalMaxBytes: number
    /** How long entries are held before they are written (0: in the turn that answered). */
    journalFlushMs?: number | undefined
  },
): RedisJournal => {
  const { connection, journalSize, journalMaxEntries, journalMaxBytes } = ctx
  let flushMs = ctx.journalFlushMs ?? DEFAULT_JOURNAL_FLUSH_MS
  const keeps = journalSize > 0 && journalMaxEntries > 0 && journalMaxBytes > 0
  const keyOf = (sid: string) => sessionKey(connection.prefix, sid)
  const feedKey = `${connection.prefix}{~feed}:requests`
  // A session's held entries are compacted to `journalSize` once they pass this
  // (and when written), so a write of one session never holds more than it keeps.
  const compactAt = journalSize + Math.max(16, Math.floor(journalSize / 4))
  // Held entries past an eighth of the server-wide budget are written at once:
  // the budget evicts whole writes, oldest first, and a write that alone
  // passed it would go whole.
  const maxHeldEntries = Math.max(compactAt, Math.floor(journalMaxEntries / 8))
  const maxHeldBytes = Math.max(1, Math.floor(journalMaxBytes / 8))
  let held = new Map<string, Held>()
  let heldEntries = 0
  let heldBytes = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  let ticking = false
  let order = 0
  /** Each held record's session epoch ('' when unknown). */
  const epochs = new WeakMap<JournalRecord, string>()
  /** Each session's last write, and the feed's: what a barrier waits for. */
  const writes = new Map<string, Promise<unknown>>()
  let feedWrite: Promise<unknown> = Promise.resolve()

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
  /** Batches to the budget: per session, its numbers (space-separated), how many, their bytes, and those skipped. */
  const ledger = (batches: (string | number)[]): void => {
    if (batches.length === 0) return
    feedWrite = (
      connection.run(LEDGER_SCRIPT, feedKey, [
        journalMaxEntries,
        journalMaxBytes,
        ...batches,
      ]) as Promise<string[]>
    ).then(evict, () => {})
  }
  /** A session's kept entries as one batch of the budget. */
  const batchOf = (sid: string, seqs: number[], bytes: number, skipped = 0): (string | number)[] =>
    seqs.length === 0 ? [] : [sid, seqs.join(' '), seqs.length, bytes, skipped]

  /**
   * Leaves out what the write would trim at once: the session keeps its
   * `journalSize` highest numbers, and Redis numbers the entries refused
   * before their round trip (seq 0) above every other. So of the held
   * entries, the last `journalSize` of those, then the highest-numbered
   * others up to `journalSize` in all, can be kept; the rest never could.
   */
  const compact = (entry: Held): void => {
    const unnumbered = entry.records.filter((r) => r.seq <= 0)
    const keptUnnumbered = unnumbered.slice(Math.max(0, unnumbered.length - journalSize))
    const room = journalSize - keptUnnumbered.length
    const numbered = entry.records.filter((r) => r.seq > 0).sort((a, b) => b.seq - a.seq)
    const kept = new Set<JournalRecord>([...keptUnnumbered, ...numbered.slice(0, room)])
    const records: JournalRecord[] = []
    for (const record of entry.records) {
      if (kept.has(record)) records.push(record)
      else {
        heldEntries--
        heldBytes -= record.bytes
        entry.skipped++
      }
    }
    entry.records = records
  }

  /** Writes what this instance holds of a session (undefined: of every session), without waiting. */
  const send = (only: string | undefined): void => {
    let batch: Map<string, Held>
    if (only === undefined) {
      batch = held
      held = new Map()
      heldEntries = 0
      heldBytes = 0
    } else {
      const entry = held.get(only)
      if (entry === undefined) return
      held.delete(only)
      heldEntries -= entry.records.length
      for (const record of entry.records) heldBytes -= record.bytes
      batch = new Map([[only, entry]])
    }
    // Every numbered entry of the moment in one call to the budget, a batch per session.
    const numbered: (string | number)[] = []
    for (const [sid, entry] of batch) {
      if (entry.records.length > journalSize) compact(entry)
      const { records } = entry
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
        args.push(record.seq, epochs.get(record) ?? '', json)
        sizes.push(json.length)
        if (record.seq > 0) {
          seqs.push(record.seq)
          bytes += json.length
        }
      }
      numbered.push(...batchOf(sid, seqs, bytes, entry.skipped))
      const written = connection.run(RECORD_SCRIPT, keyOf(sid), args) as Promise<number[]>
      // Those Redis numbered go to the budget once it has.
      const done =
        seqs.length < records.length
          ? written.then((kept) => {
              const late: number[] = []
              let lateBytes = 0
              kept.forEach((seq, i) => {
                if (seq > 0 && records[i]?.seq === 0) {
                  late.push(seq)
                  lateBytes += sizes[i] as number
                }
              })
              ledger(batchOf(sid, late, lateBytes))
            })
          : written
      const last = done.catch(() => {})
      writes.set(sid, last)
      last.then(() => {
        if (writes.get(sid) === last) writes.delete(sid)
      })
    }
    ledger(numbered)
  }
  const sendAll = (): void => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    send(undefined)
  }
  /** Sessions with an entry Redis numbers when written: sent in the turn that answered. */
  const unnumbered = new Set<string>()
  const sendTurn = (): void => {
    ticking = false
    if (flushMs === 0) {
      sendAll()
      return
    }
    for (const sid of unnumbered) send(sid)
    unnumbered.clear()
  }
  /** Resolves once what was sent of a session (or of all) is in Redis. */
  const written = async (sid: string | undefined): Promise<void> => {
    if (sid !== undefined) await writes.get(sid)
    else await Promise.all([...writes.values()])
    await feedWrite
  }
  const barrier = createJournalBarrier({ connection, send, written, onError: ctx.onError })

  return {
    record(sid, seq, capture, epoch) {
      const record = boundCapture(capture)
      record.seq = seq ?? 0
      record.order = ++order
      if (!keeps) return record
      if (epoch !== undefined) epochs.set(record, epoch)
      let entry = held.get(sid)
      if (entry === undefined) {
        entry = { records: [], skipped: 0 }
        held.set(sid, entry)
      }
      entry.records.push(record)
      heldEntries++
      heldBytes += record.bytes
      if (entry.records.length >= compactAt) {
        compact(entry)
        // Compacted away at once (journalSize 0 is not kept at all, above).
        if (!entry.records.includes(record)) return record
      }
      if (heldEntries > maxHeldEntries || heldBytes > maxHeldBytes) sendAll()
      else if (flushMs === 0 || record.seq === 0) {
        // Numbered by Redis when written (a request refused before its round
        // trip): held, it would be numbered after requests answered later.
        if (record.seq === 0) unnumbered.add(sid)
        if (!ticking) {
          ticking = true
          process.nextTick(sendTurn)
        }
      } else if (timer === undefined) {
        timer = setTimeout(sendAll, flushMs)
        timer.unref()
      }
      return record
    },
    async markAborted(sid, record) {
      record.aborted = true
      // Still held: it is written aborted. Numbered by Redis (0): a held answer never is.
      if (!keeps || record.seq <= 0 || held.get(sid)?.records.includes(record) === true) return
      await writes.get(sid)
      await connection.run(ABORT_SCRIPT, keyOf(sid), [
        sid,
        record.seq,
        JSON.stringify(toJournalEntry(record)),
        epochs.get(record) ?? '',
      ])
    },
    settle: (sid) => (keeps ? barrier.wait(sid) : Promise.resolve()),
    async start() {
      // Without the barrier a read could not have the others write: write in the turn, as before 0069.
      if (keeps && !(await barrier.start())) flushMs = 0
    },
    async close() {
      sendAll()
      let bound: ReturnType<typeof setTimeout> | undefined
      await Promise.race([
        written(undefined),
        new Promise((done) => {
          bound = setTimeout(done, 2_000)
          bound.unref()
        }),
      ])
      clearTimeout(bound)
      await barrier.close()
    },
    async list(sid) {
      await this.settle(sid)
      const rows = (await connection.run(JOURNAL_SCRIPT, keyOf(sid), [sid])) as string[]
      return rows.map((row) => JSON.parse(row) as JournalEntry)
    },
    async recent(cursor, max) {
      await this.settle(undefined)
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
      // Instances write what they held each in its turn: the page in the order
      // the requests came (a session's by number), the feed's order otherwise.
      entries.sort((a, b) =>
        a.time !== b.time
          ? a.time < b.time
            ? -1
            : 1
          : a.session === b.session
            ? a.seq - b.seq
            : 0,
      )
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
