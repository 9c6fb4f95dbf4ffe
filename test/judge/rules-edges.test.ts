import { describe, expect, it } from 'vitest'
import type { JournalEntry } from '../../src/index.js'
import { keyRef } from '../../src/journal/key-ref.js'
import { entriesFromHAR } from '../../src/judge/entries-from-har.js'
import { measureCoverage } from '../../src/judge/measure-coverage.js'
import { reportClient } from '../../src/judge/report-client.js'
import { OPERATIONS } from '../../src/operations/routes.js'

// The rules' edges on hand-made journals: the clock's boundaries, HTTP-date
// Retry-After, zero gaps, callers apart, the 60 s window, keys accepted later.
const T0 = Date.parse('2030-01-01T12:00:00Z')
const REF = keyRef('sandbox-free')

let seq = 0
const entry = (
  at: number,
  over: Partial<JournalEntry> & { headers?: Record<string, string>; body?: string } = {},
): JournalEntry => {
  const { headers = {}, body = null, ...rest } = over
  seq++
  return {
    seq,
    time: new Date(T0 + at).toISOString(),
    session: 'default',
    method: 'GET',
    url: 'http://x/v1/pets',
    operation: 'listPets',
    caller: `key:${REF}`,
    keyRef: REF,
    status: 200,
    code: null,
    fault: undefined,
    scenario: 'default',
    plan: 'free',
    source: 'sandbox',
    violations: [],
    aborted: false,
    delivered: rest.aborted !== true && rest.status !== null,
    durationMs: 0.1,
    delayMs: 0,
    request: { headers: {}, body, bodyTruncated: false },
    response: rest.status === null ? null : { headers, body: '[]', bodyTruncated: false },
    ...rest,
  }
}
const limited = (
  at: number,
  retryAfter: string,
  code = 'rate_limit_exceeded',
  over: Partial<JournalEntry> = {},
) => entry(at, { status: 429, code, headers: { 'retry-after': retryAfter }, ...over })
const rulesOf = (entries: JournalEntry[]) =>
  reportClient(entries, { session: 'default' }).findings.map((f) => `${f.rule} ${f.seqs.join(',')}`)

describe('retry-before-retry-after', () => {
  it('counts a request at the exact end of Retry-After as on time, one millisecond before as early', () => {
    seq = 0
    expect(rulesOf([limited(0, '2'), entry(2_000)])).toEqual([])
    seq = 0
    expect(rulesOf([limited(0, '2'), entry(1_999)])).toEqual(['retry-before-retry-after 1,2'])
  })

  it('reads an HTTP-date Retry-After, and counts from the end of a delayed answer', () => {
    seq = 0
    const date = new Date(T0 + 10_000).toUTCString()
    expect(rulesOf([limited(0, date), entry(9_000)])).toEqual(['retry-before-retry-after 1,2'])
    seq = 0
    const slow503 = entry(0, {
      status: 503,
      code: 'service_unavailable',
      delayMs: 3_000,
      headers: { 'retry-after': '5' },
    })
    expect(rulesOf([slow503, entry(8_000)])).toEqual([])
  })

  it('names the later 429 that moved the deadline, not the first of the run', () => {
    seq = 0
    // #1 says 1 s; #2 comes early (0.5 s) and is told 30 s; #3 at 10 s waited out #1's
    // Retry-After long ago: it missed #2's.
    const findings = reportClient([limited(0, '1'), limited(500, '30'), entry(10_000)], {
      session: 'default',
    }).findings
    expect(findings.map((f) => `${f.rule} ${f.seqs.join(',')}`)).toEqual([
      'retry-before-retry-after 1,2,3',
    ])
    expect(findings[0]?.message).toContain(
      'sent 2 requests before the Retry-After of the 429 rate_limit_exceeded at #2 had passed (Retry-After: 30 s; the last, #3, came 9.5 s after that answer)',
    )
    expect(findings[0]?.message).toContain(
      'the first early request, #2, ignored the 429 rate_limit_exceeded at #1 (Retry-After: 1 s)',
    )
  })

  it('keeps callers apart: another key is not early', () => {
    seq = 0
    const other = keyRef('sandbox-pro')
    expect(
      rulesOf([limited(0, '30'), entry(1_000, { caller: `key:${other}`, keyRef: other })]),
    ).toEqual([])
  })
})

describe('concurrent first attempts (contract §18, issue 37)', () => {
  it("counts a request at the failing answer's instant as concurrent, one a millisecond later as early", () => {
    seq = 0
    const unavailable = (at: number) =>
      entry(at, { status: 503, code: 'service_unavailable', headers: { 'retry-after': '5' } })
    expect(rulesOf([unavailable(0), unavailable(0), unavailable(0), entry(5_000)])).toEqual([])
    seq = 0
    expect(rulesOf([unavailable(0), entry(1)])).toEqual(['retry-before-retry-after 1,2'])
  })

  it('counts a request sent while a delayed answer was on its way as concurrent', () => {
    seq = 0
    // The 503 left 2 s after its request: a request 1 s after that request had not seen it,
    // nor one at the instant it left; one a millisecond after it left had.
    const slow = entry(0, {
      status: 503,
      code: 'service_unavailable',
      delayMs: 2_000,
      headers: { 'retry-after': '5' },
    })
    expect(rulesOf([slow, entry(1_000), entry(2_000)])).toEqual([])
    seq = 0
    expect(
      rulesOf([{ ...slow, seq: 1 }, entry(1_000, { seq: 2 }), entry(2_001, { seq: 3 })]),
    ).toEqual(['retry-before-retry-after 1,3'])
  })

  it('judges a request concurrent with a later 503 against the earlier one it could see', () => {
    seq = 0
    const unavailable = (at: number, ra: string) =>
      entry(at, { status: 503, code: 'service_unavailable', headers: { 'retry-after': ra } })
    // #1 said 10 s; at 1 s, #2 (early) meets a 503 that says 1 s, and #3 is sent at that instant:
    // #3 could not see #2's answer, but had seen #1's, whose 10 s it ignored.
    expect(rulesOf([unavailable(0, '10'), unavailable(1_000, '1'), entry(1_000)])).toEqual([
      'retry-before-retry-after 1,2,3',
    ])
  })
})

describe('no-exponential-backoff', () => {
  it('finds retries that come at once after failed connections (nothing grows from nothing)', () => {
    seq = 0
    const failed = (at: number) => entry(at, { status: null, fault: 'network-error' })
    // Each the next millisecond: the earliest a retry can be told from a concurrent request.
    expect(rulesOf([failed(0), failed(1), failed(2), failed(3)])).toEqual([
      'no-exponential-backoff 1,2,3,4',
    ])
    // The same instant is a burst of first attempts (contract §18): not retries, no waits.
    seq = 0
    expect(rulesOf([failed(0), failed(0), failed(0), failed(0)])).toEqual([])
  })

  it('needs three retries, and ends the run with the first success', () => {
    seq = 0
    const failed = (at: number) => entry(at, { status: 503, code: 'service_unavailable' })
    expect(rulesOf([failed(0), failed(1_000), failed(2_000), entry(3_000)])).toEqual([
      'no-exponential-backoff 1,2,3,4',
    ])
    seq = 0
    expect(rulesOf([failed(0), failed(1_000), entry(2_000), failed(3_000), entry(4_000)])).toEqual(
      [],
    )
  })

  it('measures waits from the failed answer, not from the request, so a slow 503 does not look like growth', () => {
    seq = 0
    // Start to start the gaps grow (3 s, 5 s, 9 s); from each answer (delays 2 s, 4 s, 8 s)
    // every wait is 1 s.
    const slow = (at: number, delayMs: number) =>
      entry(at, { status: 503, code: 'service_unavailable', delayMs })
    expect(
      rulesOf([slow(0, 2_000), slow(3_000, 4_000), slow(8_000, 8_000), entry(17_000)]),
    ).toEqual(['no-exponential-backoff 1,2,3,4'])
  })

  it('tolerates jitter: a shorter wait after a longer one in a growing run is not a finding', () => {
    seq = 0
    const failed = (at: number) => entry(at, { status: null, fault: 'network-error' })
    // Waits 1 s, 3 s, 2 s, 6 s: full jitter's kind of run; the old neighbouring-pairs rule flagged it.
    expect(
      rulesOf([failed(0), failed(1_000), failed(4_000), failed(6_000), entry(12_000)]),
    ).toEqual([])
    seq = 0
    // Waits 1 s, 1.2 s, 0.9 s, 1.1 s: constant with jitter, flagged.
    expect(rulesOf([failed(0), failed(1_000), failed(2_200), failed(3_100), entry(4_200)])).toEqual(
      ['no-exponential-backoff 1,2,3,4,5'],
    )
  })

  it("does not judge waits of just the Retry-After, and needs three waits of the client's own", () => {
    seq = 0
    const paced = (at: number) => limited(at, '5')
    // 5.5 s, 5.9 s: the server's pace; 8 s, 8 s: 3 s past Retry-After, the client's own, but two.
    expect(rulesOf([paced(0), paced(5_500), paced(11_400), paced(19_400), entry(27_400)])).toEqual(
      [],
    )
    seq = 0
    // Three own waits of 8 s (3 s past a 5 s Retry-After each): constant, flagged.
    expect(rulesOf([paced(0), paced(8_000), paced(16_000), paced(24_000), entry(32_000)])).toEqual([
      'no-exponential-backoff 1,2,3,4,5',
    ])
  })

  it("counts up to half of Retry-After past it (at least a second) as the server's pace", () => {
    const constant = (retryAfter: string, wait: number) => {
      seq = 0
      const run = [0, 1, 2, 3].map((i) => limited(i * wait, retryAfter))
      return rulesOf([...run, entry(4 * wait)])
    }
    // Retry-After 5 s: its pace runs to 7.5 s (exclusive); a constant 7.5 s is the client's own.
    expect(constant('5', 7_499)).toEqual([])
    expect(constant('5', 7_500)).toEqual(['no-exponential-backoff 1,2,3,4,5'])
    // Retry-After 1 s: the second's floor, to 2 s.
    expect(constant('1', 1_999)).toEqual([])
    expect(constant('1', 2_000)).toEqual(['no-exponential-backoff 1,2,3,4,5'])
    // Retry-After 60 s: to 90 s, so 60 s plus 0-20% (axios-retry) is its pace.
    expect(constant('60', 89_999)).toEqual([])
    expect(constant('60', 90_000)).toEqual(['no-exponential-backoff 1,2,3,4,5'])
  })

  it('judges the part past Retry-After: a back-off on top of it grows, a constant one does not', () => {
    seq = 0
    const ra = (at: number) => limited(at, '10')
    // 10 s plus 6, 8, 10, 10 s: 16-20 s whole never grew 1.6 times (flagged before
    // decision 0052), but 6 → 10 s past it did.
    expect(rulesOf([ra(0), ra(16_000), ra(34_000), ra(54_000), entry(74_000)])).toEqual([])
    seq = 0
    // 10 s plus 6, 7, 8, 9 s past it: grew by 1.5 at most, flagged; the message says which part.
    const run = [ra(0), ra(16_000), ra(33_000), ra(51_000), entry(70_000)]
    const [finding] = reportClient(run, { session: 'default' }).findings
    expect(finding?.rule).toBe('no-exponential-backoff')
    expect(finding?.message).toContain(
      'with waits of 16 s (6 s past Retry-After), 17 s (7 s past Retry-After), 18 s (8 s past Retry-After), 19 s (9 s past Retry-After)',
    )
    expect(finding?.message).toContain('(after a Retry-After, the part past it is judged)')
  })

  it('reads an HTTP-date Retry-After the same way: 4 s said, 10 s waited each time is 6 s past it', () => {
    seq = 0
    const dated = (at: number) => limited(at, new Date(T0 + at + 4_000).toUTCString())
    const run = [dated(0), dated(10_000), dated(20_000), dated(30_000), entry(40_000)]
    const [finding] = reportClient(run, { session: 'default' }).findings
    expect(finding?.rule).toBe('no-exponential-backoff')
    expect(finding?.message).toContain('10 s (6 s past Retry-After)')
    seq = 0
    // 4 s said (whole seconds: an HTTP date has no finer), 5 s waited: within half of it
    // past it (to 6 s), the server's pace.
    const paced = [dated(0), dated(5_000), dated(10_000), dated(15_000), entry(20_000)]
    expect(rulesOf(paced)).toEqual([])
  })

  it('mixes paced, own-past-Retry-After and own waits after failed connections in one run', () => {
    seq = 0
    const failed = (at: number) => entry(at, { status: null, fault: 'network-error' })
    // A 5 s Retry-After waited 6 s (paced), then failed connections waited 1 s, 1 s, 1 s: flagged.
    expect(
      rulesOf([limited(0, '5'), failed(6_000), failed(7_000), failed(8_000), entry(9_000)]),
    ).toEqual(['no-exponential-backoff 1,2,3,4,5'])
    seq = 0
    // 3 s past a 5 s Retry-After, then 1 s and 2 s, then 4 s after failed connections: grows.
    expect(
      rulesOf([limited(0, '5'), failed(8_000), failed(9_000), failed(11_000), entry(15_000)]),
    ).toEqual([])
  })

  it('counts a slow answer the client gave up on as a failure', () => {
    seq = 0
    const gaveUp = (at: number) => entry(at, { aborted: true, delayMs: 2_000 })
    expect(rulesOf([gaveUp(0), gaveUp(3_000), gaveUp(6_000), gaveUp(9_000)])).toEqual([
      'no-exponential-backoff 1,2,3,4',
    ])
  })
})

describe('request-while-banned', () => {
  it('ends the ban at its Retry-After', () => {
    seq = 0
    expect(rulesOf([limited(0, '60', 'api_key_banned'), entry(60_000)])).toEqual([])
    seq = 0
    expect(rulesOf([limited(0, '60', 'api_key_banned'), entry(59_999)])).toEqual([
      'request-while-banned 1,2',
    ])
  })

  it('starts the ban when its answer reached the client, not before', () => {
    seq = 0
    // Sent in the same millisecond as the answer that starts the ban: it could not know.
    expect(rulesOf([limited(0, '60', 'api_key_banned'), entry(0)])).toEqual([])
    seq = 0
    // The ban's answer took 500 ms: a request sent at 400 ms was concurrent with it.
    expect(
      rulesOf([limited(0, '60', 'api_key_banned', { delayMs: 500 }), entry(400), entry(501)]),
    ).toEqual(['request-while-banned 1,3'])
  })

  it('judges a request sent as the ban was answered by the 429 before it', () => {
    seq = 0
    // #2 came 1 s into #1's 5 s Retry-After, as #2's own answer started a ban: an early retry.
    expect(
      rulesOf([limited(0, '5'), limited(1_000, '60', 'api_key_banned'), entry(1_000)]),
    ).toEqual(['retry-before-retry-after 1,2,3'])
  })
})

describe('duplicate-create-after-failure', () => {
  const create = (at: number, body: string, over: Partial<JournalEntry> = {}) =>
    entry(at, { method: 'POST', operation: 'createPet', status: 201, body, ...over })

  it('compares bodies as JSON data, within 60 s, and only after a create the client gave up on', () => {
    seq = 0
    expect(
      rulesOf([
        create(0, '{"name":"Rex","categoryId":2}', { aborted: true }),
        create(60_000, '{ "categoryId": 2, "name": "Rex" }'),
      ]),
    ).toEqual(['duplicate-create-after-failure 1,2'])
    seq = 0
    expect(
      rulesOf([
        create(0, '{"name":"Rex","categoryId":2}', { aborted: true }),
        create(60_001, '{"name":"Rex","categoryId":2}'),
      ]),
    ).toEqual([])
    seq = 0
    expect(rulesOf([create(0, '{"name":"Rex"}'), create(1_000, '{"name":"Rex"}')])).toEqual([])
    seq = 0
    expect(
      rulesOf([
        create(0, '{"name":"Rex"}', { aborted: true, status: 400 }),
        create(1_000, '{"name":"Rex"}'),
      ]),
    ).toEqual([])
  })
})

describe('repeated-invalid-key', () => {
  it('stops counting once the key is accepted (a key created meanwhile)', () => {
    seq = 0
    const refused = (at: number) =>
      entry(at, { status: 401, code: 'invalid_api_key', caller: 'anon:127.0.0.1' })
    expect(
      rulesOf([
        refused(0),
        refused(1),
        refused(2),
        entry(3),
        entry(4),
        entry(5),
        entry(6),
        entry(7),
        entry(8),
      ]),
    ).toEqual([])
  })
})

describe('deprecated-operation', () => {
  it('counts a 410 operation_removed as an error even before the date (the sunset scenario)', () => {
    seq = 0
    const removed = entry(0, { operation: 'getPet', status: 410, code: 'operation_removed' })
    expect(reportClient([removed], { session: 'default' }).findings[0]?.level).toBe('error')
  })
})

describe('coverage', () => {
  it('counts statuses, notable headers and faults per operation', () => {
    seq = 0
    const report = measureCoverage(
      [
        entry(0, { headers: { link: '<http://x/v1/pets?cursor=a>; rel="next"' } }),
        entry(1, { status: null, fault: 'timeout', aborted: true }),
        entry(2, {
          operation: 'getPet',
          status: 500,
          code: 'internal_error',
          headers: { sunset: 'x' },
        }),
        entry(3, { operation: null, status: 404 }),
      ],
      { session: 'default', operations: OPERATIONS },
    )
    const [list, , get] = report.operations
    expect(list?.faults).toEqual([
      { fault: 'network-error', count: 0 },
      { fault: 'timeout', count: 1 },
      { fault: 'aborted', count: 1 },
    ])
    expect(list?.unmet).toEqual(['400', '401', '429', '500', '503', 'Retry-After', 'network-error'])
    expect(get?.statuses.find((s) => s.status === 500)).toEqual({ status: 500, count: 1 })
    expect(report.unrouted).toBe(1)
  })
})

describe('entriesFromHAR', () => {
  it('splits sessions, decodes base64 bodies, drops pseudo-headers and numbers foreign entries', () => {
    const har = {
      log: {
        entries: [
          {
            startedDateTime: '2030-01-01T12:00:00.000Z',
            time: 12,
            request: {
              method: 'get',
              url: 'https://api.test/base/v1/pets/7?__session=w1',
              headers: [
                { name: ':authority', value: 'api.test' },
                { name: 'Authorization', value: 'Bearer sandbox-free' },
              ],
            },
            response: {
              status: 401,
              headers: [],
              content: { text: btoa('{"code":"invalid_api_key"}'), encoding: 'base64' },
            },
          },
          {
            startedDateTime: '2030-01-01T12:00:01.000Z',
            request: { method: 'POST', url: 'https://api.test/v1/pets', postData: { text: '{}' } },
            response: { status: 0 },
            _error: 'net::ERR_ABORTED',
          },
        ],
      },
    }
    const [w1, other] = entriesFromHAR(har)
    expect(w1?.session).toBe('w1')
    expect(w1?.entries[0]).toMatchObject({
      seq: 1,
      method: 'GET',
      operation: 'getPet',
      caller: 'anon:unknown',
      keyRef: REF,
      code: 'invalid_api_key',
      delayMs: 12,
      // Redacted as every journal entry is (contract §14); keyRef still names the key.
      request: { headers: { authorization: 'Bearer sand…(redacted)' } },
    })
    expect(other?.entries[0]).toMatchObject({
      session: 'default',
      seq: 1,
      operation: 'createPet',
      status: null,
      fault: 'network-error',
      aborted: true,
      request: { body: '{}' },
      response: null,
    })
  })
})
