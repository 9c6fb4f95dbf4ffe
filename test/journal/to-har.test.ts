import { readFileSync } from 'node:fs'
import type { Har as HarFormat } from 'har-format'
import { describe, expect, it } from 'vitest'
import type { JournalEntry } from '../../src/journal/journal.js'
import { toHAR } from '../../src/journal/to-har.js'

const CREATOR = { name: 'petstore-sandbox', version: '0.1.0' }

const entry = (overrides: Partial<JournalEntry> = {}): JournalEntry => ({
  seq: 1,
  time: '2030-01-01T12:00:00.000Z',
  session: 'default',
  method: 'GET',
  url: 'https://api.example.test/v1/pets?limit=2&status=sold',
  operation: 'listPets',
  caller: 'key:sand…#00000000',
  keyRef: 'sand…#00000000',
  status: 200,
  code: null,
  fault: undefined,
  scenario: 'default',
  plan: 'free',
  source: 'sandbox',
  violations: [],
  aborted: false,
  delivered: true,
  durationMs: 3.5,
  delayMs: 0,
  request: {
    headers: { authorization: 'Bearer sand…(redacted)', accept: 'application/json' },
    body: null,
    bodyTruncated: false,
  },
  response: {
    headers: { 'content-type': 'application/json', 'x-total-count': '7' },
    body: '[{"id":1,"name":"Rex ✓"}]',
    bodyTruncated: false,
  },
  ...overrides,
})

describe('toHAR', () => {
  it('is a HAR 1.2 log as @types/har-format describes it (checked by tsc)', () => {
    const archive: HarFormat = toHAR([entry(), entry({ status: null, response: null })], {
      creator: CREATOR,
    })
    expect(archive.log.entries).toHaveLength(2)
  })

  it('writes a GET with its query, headers, timings and response body', () => {
    const har = toHAR([entry()], { creator: CREATOR })
    expect(har.log.version).toBe('1.2')
    expect(har.log.creator).toEqual(CREATOR)
    const [first] = har.log.entries
    expect(first).toMatchObject({
      startedDateTime: '2030-01-01T12:00:00.000Z',
      time: 3.5,
      request: {
        method: 'GET',
        url: 'https://api.example.test/v1/pets?limit=2&status=sold',
        httpVersion: 'HTTP/1.1',
        queryString: [
          { name: 'limit', value: '2' },
          { name: 'status', value: 'sold' },
        ],
        headers: [
          { name: 'authorization', value: 'Bearer sand…(redacted)' },
          { name: 'accept', value: 'application/json' },
        ],
        bodySize: 0,
      },
      response: {
        status: 200,
        statusText: 'OK',
        headers: [
          { name: 'content-type', value: 'application/json' },
          { name: 'x-total-count', value: '7' },
        ],
        // Bytes, not characters: ✓ is three bytes in UTF-8.
        content: { size: 27, mimeType: 'application/json', text: '[{"id":1,"name":"Rex ✓"}]' },
        redirectURL: '',
        bodySize: 27,
      },
      timings: { send: 0, wait: 3.5, receive: 0 },
      _sandbox: { seq: 1, session: 'default', scenario: 'default', plan: 'free', fault: null },
    })
    expect(first?.request.postData).toBeUndefined()
    expect(first?._error).toBeUndefined()
  })

  it('writes a POST body as postData with its MIME type', () => {
    const har = toHAR(
      [
        entry({
          method: 'POST',
          url: 'https://api.example.test/v1/pets',
          status: 201,
          request: {
            headers: { 'Content-Type': 'application/json; charset=utf-8' },
            body: '{"name":"Rex","categoryId":1}',
            bodyTruncated: false,
          },
        }),
      ],
      { creator: CREATOR },
    )
    const [first] = har.log.entries
    expect(first?.request.postData).toEqual({
      mimeType: 'application/json; charset=utf-8',
      text: '{"name":"Rex","categoryId":1}',
    })
    expect(first?.request.bodySize).toBe(29)
    expect(first?.response.statusText).toBe('Created')
  })

  it('notes a body the journal capped and gives its size as unknown', () => {
    const har = toHAR(
      [
        entry({
          method: 'POST',
          request: { headers: {}, body: 'x'.repeat(10), bodyTruncated: true },
          response: { headers: {}, body: 'y'.repeat(10), bodyTruncated: true },
        }),
      ],
      { creator: CREATOR },
    )
    const [first] = har.log.entries
    expect(first?.request.bodySize).toBe(-1)
    expect(first?.request.postData?.mimeType).toBe('application/octet-stream')
    expect(first?.request.postData?.comment).toMatch(/start of the request body only/)
    expect(first?.response.bodySize).toBe(-1)
    expect(first?.response.content.comment).toMatch(/start of the response body only/)
  })

  it.each([
    ['network-error', 'net::ERR_FAILED'],
    ['timeout', 'net::ERR_TIMED_OUT'],
  ] as const)('writes a %s (no response) as status 0 with Chrome’s _error %s', (fault, error) => {
    const [first] = toHAR([entry({ status: null, fault, response: null })], {
      creator: CREATOR,
    }).log.entries
    expect(first?.response).toMatchObject({ status: 0, statusText: '', headers: [], bodySize: -1 })
    expect(first?._error).toBe(error)
    expect(first?._sandbox.fault).toBe(fault)
  })

  it('counts a scenario’s delay in the time the client waited', () => {
    const [first] = toHAR([entry({ durationMs: 2, delayMs: 2000 })]).log.entries
    expect(first?.time).toBe(2002)
    expect(first?.timings.wait).toBe(2002)
  })

  it('names petstore-sandbox and its package.json version as the creator by default', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
    expect(toHAR([]).log.creator).toEqual({ name: pkg.name, version: pkg.version })
  })

  it('keeps the order of the entries and survives an empty journal', () => {
    const har = toHAR([entry({ seq: 1 }), entry({ seq: 2, method: 'DELETE', status: 405 })], {
      creator: CREATOR,
    })
    expect(har.log.entries.map((e) => [e._sandbox.seq, e.response.statusText])).toEqual([
      [1, 'OK'],
      [2, 'Method Not Allowed'],
    ])
    expect(toHAR([], { creator: CREATOR }).log.entries).toEqual([])
  })
})
