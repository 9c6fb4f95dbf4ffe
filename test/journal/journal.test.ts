import { describe, expect, it } from 'vitest'
import { createJournal, JOURNAL_LIMITS, type JournalCapture } from '../../src/journal/journal.js'
import { createJournalBudget } from '../../src/journal/journal-budget.js'
import { redactCredential as redactAuthorization } from '../../src/journal/redact-secrets.js'
import { toJournalEntry } from '../../src/journal/to-journal-entry.js'

const capture = (n: number, overrides: Partial<JournalCapture> = {}): JournalCapture => ({
  at: n * 1000,
  session: 'default',
  method: 'GET',
  url: `http://x/v1/pets/${n}`,
  operation: 'getPet',
  token: 'sandbox-free',
  keyValid: true,
  clientAddress: '127.0.0.1',
  status: 200,
  fault: undefined,
  scenario: 'default',
  plan: 'free',
  source: 'sandbox',
  violations: [],
  durationMs: 0,
  delayMs: 0,
  requestHeaders: { authorization: 'Bearer sandbox-free' },
  requestBody: null,
  responseHeaders: { 'Content-Type': 'application/json' },
  responseBody: '{}',
  ...overrides,
})
const list = (journal: ReturnType<typeof createJournal>) => journal.records().map(toJournalEntry)
const urls = (journal: ReturnType<typeof createJournal>) => list(journal).map((e) => e.url)

describe('createJournal', () => {
  it('keeps entries in order with ascending sequence numbers', () => {
    const journal = createJournal(10)
    for (let n = 1; n <= 3; n++) journal.record(capture(n))
    expect(list(journal).map((e) => e.seq)).toEqual([1, 2, 3])
    expect(urls(journal)).toEqual([
      'http://x/v1/pets/1',
      'http://x/v1/pets/2',
      'http://x/v1/pets/3',
    ])
  })

  it('keeps only the last `capacity` entries', () => {
    const journal = createJournal(3)
    for (let n = 1; n <= 8; n++) journal.record(capture(n))
    expect(list(journal).map((e) => e.seq)).toEqual([6, 7, 8])
    expect(journal.capacity).toBe(3)
    expect(journal.size).toBe(3)
  })

  it('holds 500 entries by default', () => {
    const journal = createJournal()
    for (let n = 1; n <= 600; n++) journal.record(capture(n))
    expect(journal.records()).toHaveLength(500)
    expect(journal.records()[0]?.seq).toBe(101)
  })

  it('keeps nothing with a capacity of 0', () => {
    const journal = createJournal(0)
    journal.record(capture(1))
    expect(journal.records()).toEqual([])
  })

  it('empties on clear and goes on numbering after it', () => {
    const journal = createJournal(4)
    for (let n = 1; n <= 6; n++) journal.record(capture(n))
    journal.clear()
    expect(journal.records()).toEqual([])
    journal.record(capture(7))
    expect(list(journal).map((e) => e.seq)).toEqual([7])
    for (let n = 8; n <= 12; n++) journal.record(capture(n))
    expect(list(journal).map((e) => e.seq)).toEqual([9, 10, 11, 12])
  })

  it.each([-1, 1.5, Number.NaN])('refuses a capacity of %d', (capacity) => {
    expect(() => createJournal(capacity)).toThrow(/^Failed to create the request journal/)
  })
})

describe('the server-wide budget', () => {
  it('bounds the entries of every session together, the oldest of any session first', () => {
    const budget = createJournalBudget({ maxEntries: 5 })
    const a = createJournal(500, budget)
    const b = createJournal(500, budget)
    for (let n = 1; n <= 4; n++) a.record(capture(n, { session: 'a' }))
    for (let n = 1; n <= 3; n++) b.record(capture(n, { session: 'b' }))
    expect(budget.entries).toBe(5)
    expect(a.records().map((r) => r.seq)).toEqual([3, 4])
    expect(b.records().map((r) => r.seq)).toEqual([1, 2, 3])
  })

  it('bounds the bytes: large heads push out old entries, whatever the session', () => {
    const budget = createJournalBudget({ maxBytes: 64 * 1024 })
    const big = { 'x-a': 'a'.repeat(2_000), 'x-b': 'b'.repeat(2_000) }
    const journals = Array.from({ length: 50 }, () => createJournal(500, budget))
    for (let n = 1; n <= 1_000; n++) journals[n % 50]?.record(capture(n, { requestHeaders: big }))
    expect(budget.bytes).toBeLessThanOrEqual(64 * 1024)
    expect(budget.entries).toBeGreaterThan(0)
    const held = journals.reduce((sum, j) => sum + j.size, 0)
    expect(held).toBe(budget.entries)
  })

  it("frees a session's records when the session clears its journal", () => {
    const budget = createJournalBudget()
    const a = createJournal(500, budget)
    for (let n = 1; n <= 10; n++) a.record(capture(n))
    a.clear()
    expect(budget.entries).toBe(0)
    expect(budget.bytes).toBe(0)
  })

  it('keeps nothing with a budget of 0, and numbers on', () => {
    const journal = createJournal(500, createJournalBudget({ maxEntries: 0 }))
    expect(journal.record(capture(1)).seq).toBe(1)
    expect(journal.record(capture(2)).seq).toBe(2)
    expect(journal.records()).toEqual([])
  })

  it.each([
    ['maxEntries', -1],
    ['maxBytes', 1.5],
    ['maxEntries', Number.NaN],
  ])('refuses %s %d', (name, value) => {
    expect(() => createJournalBudget({ [name]: value })).toThrow(
      /^Failed to create the request journal: journalMax/,
    )
  })

  it('gives the newest records of every session after a cursor, capped, with what it skipped', () => {
    const budget = createJournalBudget()
    const a = createJournal(500, budget)
    const b = createJournal(500, budget)
    a.record(capture(1, { session: 'a' }))
    b.record(capture(1, { session: 'b' }))
    const first = budget.recent(0, 10)
    expect(first.records.map((r) => r.session)).toEqual(['a', 'b'])
    expect(first.skipped).toBe(0)
    for (let n = 2; n <= 6; n++) a.record(capture(n, { session: 'a' }))
    const next = budget.recent(first.cursor, 2)
    expect(next.records.map((r) => r.seq)).toEqual([5, 6])
    expect(next.skipped).toBe(3)
    expect(budget.recent(next.cursor, 2).records).toEqual([])
  })
})

describe('each entry kept within bounds', () => {
  it('cuts a long header value with a marker and says so', () => {
    const journal = createJournal()
    journal.record(capture(1, { requestHeaders: { 'x-long': 'v'.repeat(10_000) } }))
    const value = list(journal)[0]?.request.headers['x-long'] ?? ''
    expect(value.startsWith('v'.repeat(JOURNAL_LIMITS.headerValueChars))).toBe(true)
    expect(value).toMatch(/…\(cut 7952 characters\)$/)
  })

  it('keeps at most 100 header lines and counts the rest', () => {
    const headers: Record<string, string> = {}
    for (let i = 0; i < 500; i++) headers[`x-h${i}`] = 'v'
    const journal = createJournal()
    journal.record(capture(1, { requestHeaders: headers }))
    const kept = list(journal)[0]?.request.headers ?? {}
    expect(Object.keys(kept)).toHaveLength(JOURNAL_LIMITS.headers)
    expect(kept['x-sandbox-journal-dropped']).toBe('401 more header lines were not kept')
  })

  it('copies the request body, so the journal never holds the buffer it was read from', () => {
    const socketBuffer = new Uint8Array(65_536).fill(0x61)
    const body = socketBuffer.subarray(0, 10)
    const record = createJournal().record(capture(1, { requestBody: body }))
    expect(record.requestBody?.buffer.byteLength).toBe(10)
    expect(toJournalEntry(record).request.body).toBe('aaaaaaaaaa')
  })

  it('cuts long bodies at 8 KiB and flags them', () => {
    const record = createJournal().record(
      capture(1, {
        requestBody: new TextEncoder().encode('é'.repeat(40_000)),
        responseBody: 'x'.repeat(20_000),
      }),
    )
    const entry = toJournalEntry(record)
    expect(entry.request.body).toHaveLength(JOURNAL_LIMITS.bodyChars)
    expect(entry.request.bodyTruncated).toBe(true)
    expect(entry.response?.body).toHaveLength(JOURNAL_LIMITS.bodyChars)
    expect(entry.response?.bodyTruncated).toBe(true)
  })
})

describe('reading an entry', () => {
  it('redacts when read: credentials, secret query parameters; names the caller without the key', () => {
    const record = createJournal().record(
      capture(1, { url: 'http://x/v1/pets?api_key=abc&limit=2' }),
    )
    const entry = toJournalEntry(record)
    expect(entry.request.headers.authorization).toBe('Bearer sand…(redacted)')
    expect(entry.url).toBe('http://x/v1/pets?api_key=(redacted)&limit=2')
    expect(entry.caller).toMatch(/^key:sand…#[0-9a-f]{8}$/)
    expect(entry.keyRef).toBe(entry.caller.slice('key:'.length))
    expect(JSON.stringify(entry)).not.toContain('sandbox-free')
  })

  it('tells keys with the same start apart', () => {
    const free = toJournalEntry(createJournal().record(capture(1, { token: 'sandbox-free' })))
    const pro = toJournalEntry(createJournal().record(capture(1, { token: 'sandbox-pro' })))
    expect(free.keyRef).not.toBe(pro.keyRef)
  })

  it('names an anonymous caller by address, and keeps the ref of an invalid key', () => {
    const entry = toJournalEntry(
      createJournal().record(capture(1, { token: 'nope-nope', keyValid: false, status: 401 })),
    )
    expect(entry.caller).toBe('anon:127.0.0.1')
    expect(entry.keyRef).toMatch(/^nope…#/)
  })

  it('reads the Error code of an error answer, and none of a success', () => {
    const error = toJournalEntry(
      createJournal().record(
        capture(1, {
          status: 404,
          responseBody: '{"code":"pet_not_found","message":"x","status":404}',
        }),
      ),
    )
    expect(error.code).toBe('pet_not_found')
    expect(toJournalEntry(createJournal().record(capture(2))).code).toBeNull()
  })
})

describe('redactCredential', () => {
  it.each([
    ['Bearer sandbox-enterprise', 'Bearer sand…(redacted)'],
    ['bearer sk_sandbox_0123456789abcdef', 'bearer sk_s…(redacted)'],
    ['Basic c2VjcmV0OnBhc3N3b3Jk', 'Basic c2Vj…(redacted)'],
    ['Bearer abcd', 'Bearer ab…(redacted)'],
    ['Bearer abcdefg', 'Bearer abc…(redacted)'],
    ['Bearer a', 'Bearer …(redacted)'],
    ['sandbox-enterprise', '(redacted)'],
    ['', '(redacted)'],
  ])('redacts %j to %j', (value, redacted) => {
    expect(redactAuthorization(value)).toBe(redacted)
  })

  it('never keeps more than four characters, nor half, of a key', () => {
    for (const key of ['sk_sandbox_0123456789abcdef', 'abcd', 'ab', 'a']) {
      const kept = redactAuthorization(`Bearer ${key}`).slice('Bearer '.length).split('…')[0] ?? ''
      expect(kept.length).toBeLessThanOrEqual(Math.min(4, key.length / 2))
      expect(key.startsWith(kept)).toBe(true)
    }
  })
})
