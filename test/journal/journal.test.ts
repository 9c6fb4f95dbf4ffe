import { describe, expect, it } from 'vitest'
import { createJournal, type JournalEntry } from '../../src/journal/journal.js'
import { redactCredential as redactAuthorization } from '../../src/journal/redact-secrets.js'

const entry = (n: number): Omit<JournalEntry, 'seq'> => ({
  time: new Date(n * 1000).toISOString(),
  method: 'GET',
  url: `/v1/pets/${n}`,
  status: 200,
  session: 'default',
  fault: undefined,
  scenario: 'default',
  plan: 'free',
  durationMs: 0,
  delayMs: 0,
  request: { headers: {}, body: null, bodyTruncated: false },
  response: { headers: {}, body: null, bodyTruncated: false },
})
const urls = (entries: JournalEntry[]) => entries.map((e) => e.url)

describe('createJournal', () => {
  it('keeps entries in order with ascending sequence numbers', () => {
    const journal = createJournal(10)
    for (let n = 1; n <= 3; n++) journal.record(entry(n))
    expect(journal.list().map((e) => e.seq)).toEqual([1, 2, 3])
    expect(urls(journal.list())).toEqual(['/v1/pets/1', '/v1/pets/2', '/v1/pets/3'])
  })

  it('keeps only the last `capacity` entries', () => {
    const journal = createJournal(3)
    for (let n = 1; n <= 8; n++) journal.record(entry(n))
    expect(journal.list().map((e) => e.seq)).toEqual([6, 7, 8])
    expect(journal.capacity).toBe(3)
  })

  it('holds 500 entries by default', () => {
    const journal = createJournal()
    for (let n = 1; n <= 600; n++) journal.record(entry(n))
    expect(journal.list()).toHaveLength(500)
    expect(journal.list()[0]?.seq).toBe(101)
  })

  it('keeps nothing with a capacity of 0', () => {
    const journal = createJournal(0)
    journal.record(entry(1))
    expect(journal.list()).toEqual([])
  })

  it('empties on clear and goes on numbering after it', () => {
    const journal = createJournal(4)
    for (let n = 1; n <= 6; n++) journal.record(entry(n))
    journal.clear()
    expect(journal.list()).toEqual([])
    journal.record(entry(7))
    expect(journal.list().map((e) => e.seq)).toEqual([7])
    for (let n = 8; n <= 12; n++) journal.record(entry(n))
    expect(journal.list().map((e) => e.seq)).toEqual([9, 10, 11, 12])
  })

  it.each([-1, 1.5, Number.NaN])('refuses a capacity of %d', (capacity) => {
    expect(() => createJournal(capacity)).toThrow(/^Failed to create the request journal/)
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
