import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { shouldLogRequest } from '../../src/cli/should-log-request.js'
import { formatLogLine, type RequestLogEntry } from '../../src/server/format-log-line.js'
import { createHttpTarget } from '../conformance/targets/http-target.js'
import { rawExchange, requestText } from '../faults/raw-exchange.js'
import { sendHttp, sendRaw } from './support/send-raw.js'

// Issue 10 points 8 and 9: the request log is one safe line per request, without secrets.
const lines: string[] = []
const target = createHttpTarget({
  onRequest: (entry) => lines.push(formatLogLine(entry, new Date(0))),
})
beforeAll(() => target.start())
afterAll(() => target.stop())

const lastLine = async (): Promise<string> => {
  // onRequest runs on the response's close, just after the client has the answer.
  for (let i = 0; i < 50 && lines.length === 0; i++) await new Promise((r) => setImmediate(r))
  return lines.pop() ?? ''
}
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find them.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/

describe('the request log', () => {
  it('escapes control characters from the decoded __scenario value (no forged lines)', async () => {
    lines.length = 0
    await sendHttp(target.origin, {
      path: '/v1/pets?__scenario=%1b%5b2J%0d%0a12:00:00.000%20GET%20/admin%20200',
      headers: { authorization: 'Bearer sandbox-free' },
    })
    const line = await lastLine()
    expect(line).not.toMatch(CONTROL)
    expect(line).toContain('\\x1b[2J\\x0d\\x0a12:00')
  })

  it('escapes control characters from X-Sandbox-Scenario and never shows a raw one', async () => {
    lines.length = 0
    // A C1 control character is obs-text, which HTTP lets through in a header value.
    await sendRaw(
      target.origin,
      'GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer sandbox-free\r\nX-Sandbox-Scenario: a\u0085b\r\nConnection: close\r\n\r\n',
    )
    expect(await lastLine()).not.toMatch(CONTROL)
  })

  it('writes no secret query parameter', async () => {
    lines.length = 0
    await sendHttp(target.origin, {
      path: '/v1/pets?limit=1&api_key=TOPSECRET&access_token=ALSOSECRET',
      headers: { authorization: 'Bearer sandbox-free' },
    })
    const line = await lastLine()
    expect(line).toContain('limit=1&api_key=(redacted)&access_token=(redacted)')
    expect(line).not.toMatch(/TOPSECRET|ALSOSECRET/)
  })

  it('escapes every field of an entry', () => {
    const entry: RequestLogEntry = {
      method: 'GE\nT',
      path: '/v1/pets',
      status: 200,
      ms: 1,
      scenario: '\u2028x',
      plan: 'free\r',
      session: 'a\u001bb',
    }
    expect(formatLogLine(entry, new Date(0))).not.toMatch(CONTROL)
  })
})

describe('the request log of faults (issue 37 item 12)', () => {
  it.each([
    ['proxy-error', / GET +\/v1\/pets\?__scenario=proxy-error +502 /],
    ['malformed-json', / 200 .* malformed-json /],
    ['slow-body&__bandwidth=10000000', / 200 .* slow-body /],
    ['truncated-body', / dropped .* truncated-body /],
    ['reset-mid-body&__delay=0', / dropped .* reset-mid-body /],
    ['empty-response', / dropped .* empty-response /],
    ['network-error', / dropped .* network-error /],
  ])('logs %s as the client got it', async (query, line) => {
    lines.length = 0
    await rawExchange(target.origin, requestText('GET', `/v1/pets?__scenario=${query}`))
    expect(await lastLine()).toMatch(line)
  })
})

describe('the request log labels and filters', () => {
  it('labels a request without a key no-key, and one with a key the sandbox does not know unknown-key', async () => {
    lines.length = 0
    await sendHttp(target.origin, { path: '/v1/pets' })
    expect(await lastLine()).toMatch(/ 401 .* no-key +default$/)
    await sendHttp(target.origin, {
      path: '/v1/pets',
      headers: { authorization: 'Bearer not-a-key-anyone-made' },
    })
    expect(await lastLine()).toMatch(/ 401 .* unknown-key +default$/)
  })

  it('leaves out the dashboard reads and keeps control calls that change or fail', () => {
    const entry = (method: string, path: string, status: number | 'dropped'): RequestLogEntry => ({
      method,
      path,
      status,
      ms: 1,
      scenario: '-',
      plan: '-',
      session: '-',
    })
    expect(shouldLogRequest(entry('GET', '/__sandbox/sessions', 200))).toBe(false)
    expect(shouldLogRequest(entry('GET', '/__sandbox/events', 'dropped'))).toBe(false)
    expect(shouldLogRequest(entry('GET', '/__sandbox/', 200))).toBe(false)
    expect(shouldLogRequest(entry('GET', '/__sandbox/requests', 403))).toBe(true)
    expect(shouldLogRequest(entry('PUT', '/__sandbox/scenario', 200))).toBe(true)
    expect(shouldLogRequest(entry('GET', '/v1/pets', 200))).toBe(true)
    expect(shouldLogRequest(entry('GET', '/__sandboxed/x', 404))).toBe(true)
  })
})
