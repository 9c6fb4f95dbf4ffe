// HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) from journal
// entries. Pure and runtime-free: the browser sandbox exports HAR too.
import { PACKAGE_NAME, PACKAGE_VERSION } from '../contract/package-info.js'
import type { Fault } from '../http/types.js'
import type { JournalEntry } from './journal.js'

export interface HarNameValue {
  name: string
  value: string
}

export interface HarEntry {
  /** HAR's custom fields start with an underscore. */
  [custom: `_${string}`]: unknown
  startedDateTime: string
  time: number
  request: {
    method: string
    url: string
    httpVersion: string
    cookies: HarNameValue[]
    headers: HarNameValue[]
    queryString: HarNameValue[]
    postData?: { mimeType: string; text: string; comment?: string }
    headersSize: number
    bodySize: number
  }
  response: {
    status: number
    statusText: string
    httpVersion: string
    cookies: HarNameValue[]
    headers: HarNameValue[]
    content: {
      size: number
      mimeType: string
      text?: string
      /** `base64` when `text` holds bytes that are not UTF-8 text. */
      encoding?: 'base64'
      comment?: string
    }
    redirectURL: string
    headersSize: number
    bodySize: number
  }
  cache: Record<string, never>
  timings: {
    blocked: number
    dns: number
    connect: number
    send: number
    wait: number
    receive: number
    ssl: number
  }
  /** Chrome's field for a request that got no response (`net::ERR_FAILED`, `net::ERR_TIMED_OUT`). */
  _error?: string
  /** Rules of the contract the answer broke (upstream and replayed answers are checked). */
  _violations: { rule: string; message: string }[]
  /** What the sandbox knows of the request beyond HTTP. */
  _sandbox: {
    seq: number
    session: string
    scenario: string
    plan: string | null
    fault: Fault | null
    /** The routed operation (null: no API route). */
    operation: string | null
    /** `key:<ref>` or `anon:<address>` (contract §18), and the ref of the token sent. */
    caller: string
    keyRef: string | null
    source: 'sandbox' | 'upstream' | 'replay'
    /** The client went away before the answer reached it. */
    aborted: boolean
    /** False when the answer did not reach the client whole (`JournalEntry.delivered`). */
    delivered: boolean
    /** A scenario's delay before the answer (or the failure), in ms: `Retry-After` counts from its end. */
    delayMs: number
    /** The timeline phase that chose the scenario, when a timeline was in play. */
    phase?: { timeline: string; index: number; scenario: string }
  }
}

/** An HTTP Archive, version 1.2. */
export interface Har {
  log: {
    version: '1.2'
    creator: { name: string; version: string }
    entries: HarEntry[]
  }
}

export interface ToHarOptions {
  /** The tool that made the archive (default petstore-sandbox and its version). */
  creator?: { name: string; version: string }
}

// The reasons of the statuses the sandbox answers with (HAR wants a statusText).
const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
}

/** The reason phrase HAR records for a status ('' for one the sandbox does not name). */
export const statusTextOf = (status: number): string => STATUS_TEXT[status] ?? ''

// What Chrome writes in `_error` for the same failure, so devtools shows it as failed
// (commit-then-drop's and empty-response's as Chromium reported them over the standalone
// server: test/faults/chromium-wire.test.ts).
const FAULT_ERRORS: Readonly<Record<Fault, string>> = {
  'network-error': 'net::ERR_FAILED',
  timeout: 'net::ERR_TIMED_OUT',
  'reset-mid-body': 'net::ERR_CONNECTION_RESET',
  'truncated-body': 'net::ERR_CONTENT_LENGTH_MISMATCH',
  'stall-after-headers': 'net::ERR_TIMED_OUT',
  'slow-body': 'net::ERR_ABORTED',
  'malformed-json': 'net::ERR_FAILED',
  'proxy-error': 'net::ERR_FAILED',
  'empty-response': 'net::ERR_EMPTY_RESPONSE',
  'commit-then-drop': 'net::ERR_EMPTY_RESPONSE',
}

/** The fault's `_error`: commit-then-drop with `__drop=reset` ends in a reset, not a close. */
const faultError = (entry: JournalEntry, fault: Fault): string => {
  if (fault === 'commit-then-drop' && /[?&]__drop=reset(?:&|#|$)/.test(entry.url))
    return 'net::ERR_CONNECTION_RESET'
  return FAULT_ERRORS[fault]
}

/** Chrome's `_error` for an entry whose answer did not reach the client whole (none when it did). */
const harError = (entry: JournalEntry): { _error?: string } => {
  if (entry.status === null) return { _error: faultError(entry, entry.fault ?? 'network-error') }
  if (entry.delivered) return {}
  // An answer made (its status kept) that broke on its way, or that the client gave up on.
  return { _error: entry.fault === undefined ? 'net::ERR_ABORTED' : faultError(entry, entry.fault) }
}

const encoder = new TextEncoder()
const byteLength = (text: string): number => encoder.encode(text).byteLength

const nameValues = (record: Record<string, string>): HarNameValue[] =>
  Object.entries(record).map(([name, value]) => ({ name, value }))

const headerValue = (headers: Record<string, string>, name: string): string | undefined => {
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return value
  return undefined
}

/** The number of bytes a base64 text holds. */
const base64Bytes = (text: string): number =>
  Math.floor((text.length * 3) / 4) - (text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0)

const truncatedNote = (part: string): string =>
  `The journal kept the start of the ${part} body only (it caps what it keeps).`

const toQueryString = (url: string): HarNameValue[] => {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }))
  } catch {
    return []
  }
}

const toRequest = (entry: JournalEntry): HarEntry['request'] => {
  const { headers, body, bodyTruncated } = entry.request
  const request: HarEntry['request'] = {
    method: entry.method,
    url: entry.url,
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: nameValues(headers),
    queryString: toQueryString(entry.url),
    headersSize: -1,
    bodySize: body === null ? 0 : bodyTruncated ? -1 : byteLength(body),
  }
  if (body !== null) {
    request.postData = {
      mimeType: headerValue(headers, 'content-type') ?? 'application/octet-stream',
      text: body,
      ...(bodyTruncated ? { comment: truncatedNote('request') } : {}),
    }
  }
  return request
}

const toResponse = (entry: JournalEntry): HarEntry['response'] => {
  const response = entry.response
  if (entry.status === null || response === null) {
    // No response: what browsers record for a failed connection.
    return {
      status: 0,
      statusText: '',
      httpVersion: '',
      cookies: [],
      headers: [],
      content: { size: 0, mimeType: 'x-unknown' },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
    }
  }
  const { headers, body, bodyTruncated } = response
  // A binary answer's body is base64 in the journal: HAR 1.2's `encoding` says so, `size` is its bytes.
  const base64 = response.encoding === 'base64'
  const size = body === null ? 0 : base64 ? base64Bytes(body) : byteLength(body)
  const location = headerValue(headers, 'location')
  return {
    status: entry.status,
    statusText: statusTextOf(entry.status),
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: nameValues(headers),
    content: {
      size,
      mimeType: headerValue(headers, 'content-type') ?? 'x-unknown',
      ...(body === null ? {} : { text: body }),
      ...(body !== null && base64 ? { encoding: 'base64' } : {}),
      ...(bodyTruncated ? { comment: truncatedNote('response') } : {}),
    },
    redirectURL: entry.status >= 300 && entry.status < 400 ? (location ?? '') : '',
    headersSize: -1,
    bodySize: bodyTruncated ? -1 : size,
  }
}

/**
 * Turns journal entries into an HTTP Archive (HAR 1.2) that browser devtools
 * open and Playwright's `routeFromHAR` replays. Bodies and headers are what
 * the journal kept: capped (noted in `comment`) and with secrets redacted. A
 * request that got no response (a failed connection) has status 0 and
 * Chrome's `_error`; the sandbox's own view (scenario, plan, session, fault,
 * source) is in `_sandbox`, and the contract rules an upstream answer broke in
 * `_violations`.
 *
 * @example
 * const har = toHAR(sandbox.journal.list())
 * writeFileSync('session.har', JSON.stringify(har, null, 2))
 */
export const toHAR = (entries: readonly JournalEntry[], options: ToHarOptions = {}): Har => ({
  log: {
    version: '1.2',
    creator: {
      name: options.creator?.name ?? PACKAGE_NAME,
      version: options.creator?.version ?? PACKAGE_VERSION,
    },
    entries: entries.map((entry) => ({
      startedDateTime: entry.time,
      // A scenario's delay is time the client waited too.
      time: entry.durationMs + entry.delayMs,
      request: toRequest(entry),
      response: toResponse(entry),
      cache: {},
      timings: {
        blocked: -1,
        dns: -1,
        connect: -1,
        send: 0,
        wait: entry.durationMs + entry.delayMs,
        receive: 0,
        ssl: -1,
      },
      // A failed connection, or an answer that did not arrive whole (its status kept).
      ...harError(entry),
      _violations: entry.violations,
      _sandbox: {
        seq: entry.seq,
        session: entry.session,
        scenario: entry.scenario,
        plan: entry.plan ?? null,
        fault: entry.fault ?? null,
        operation: entry.operation,
        caller: entry.caller,
        keyRef: entry.keyRef,
        source: entry.source,
        aborted: entry.aborted,
        delivered: entry.delivered,
        delayMs: entry.delayMs,
        ...(entry.phase === undefined ? {} : { phase: entry.phase }),
      },
    })),
  },
})
