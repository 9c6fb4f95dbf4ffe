import type { JournalEntry } from '../journal/journal.js'

/**
 * A journal entry as the rules read it: the entry's own fields (one definition, the
 * journal's), times in epoch ms by the sandbox clock, the headers they need parsed.
 */
export interface JudgedRequest
  extends Pick<
    JournalEntry,
    'seq' | 'method' | 'url' | 'operation' | 'caller' | 'keyRef' | 'status' | 'code' | 'fault'
  > {
  /** When the request arrived. */
  at: number
  /** When its answer (or fault) left: `at` plus a scenario's delay. */
  answeredAt: number
  /** The client went away before the answer reached it. */
  aborted: boolean
  /** False when the answer did not reach the client whole (a fault broke it, or the client gave up). */
  delivered: boolean
  /** The answer's `Retry-After`, in ms; null for none. */
  retryAfterMs: number | null
  /** The answer's `Sunset` date, epoch ms; null for none. */
  sunsetAt: number | null
  requestBody: string | null
  responseBody: string | null
}

const parseRetryAfter = (value: string | undefined, at: number): number | null => {
  if (value === undefined) return null
  const text = value.trim()
  if (/^\d+$/.test(text)) return Number(text) * 1000
  // An HTTP date (RFC 9110 allows it; an upstream may send one).
  const date = Date.parse(text)
  return Number.isNaN(date) ? null : Math.max(0, date - at)
}

const parseDate = (value: string | undefined): number | null => {
  if (value === undefined) return null
  const date = Date.parse(value)
  return Number.isNaN(date) ? null : date
}

/**
 * Reads an entry once for every rule.
 *
 * @example
 * const requests = entries.map(toJudgedRequest)
 */
export const toJudgedRequest = (entry: JournalEntry): JudgedRequest => {
  const at = Date.parse(entry.time)
  const answeredAt = at + entry.delayMs
  const headers = entry.response?.headers ?? {}
  return {
    seq: entry.seq,
    at,
    answeredAt,
    method: entry.method,
    url: entry.url,
    operation: entry.operation,
    caller: entry.caller,
    keyRef: entry.keyRef,
    status: entry.status,
    code: entry.code,
    fault: entry.fault,
    aborted: entry.aborted,
    delivered: entry.delivered,
    retryAfterMs: parseRetryAfter(headers['retry-after'], answeredAt),
    sunsetAt: parseDate(headers.sunset),
    requestBody: entry.request.body,
    responseBody: entry.response?.body ?? null,
  }
}

/** A ban's answer: 429 `api_key_banned`. */
export const isBanAnswer = (request: JudgedRequest): boolean =>
  request.status === 429 && request.code === 'api_key_banned'

/** An answer that tells the client to come back later: 429 (not a ban) or 503, with `Retry-After`. */
export const isBackOffAnswer = (request: JudgedRequest): boolean =>
  (request.status === 503 || (request.status === 429 && !isBanAnswer(request))) &&
  request.retryAfterMs !== null

/** The requests of each caller, in journal order. */
export const byCaller = (requests: readonly JudgedRequest[]): JudgedRequest[][] => {
  const groups = new Map<string, JudgedRequest[]>()
  for (const request of requests) {
    const group = groups.get(request.caller)
    if (group === undefined) groups.set(request.caller, [request])
    else group.push(request)
  }
  return [...groups.values()]
}

/** `key:sand…#1a2b3c4d` as a sentence's subject. */
export const describeCaller = (caller: string): string => {
  if (caller.startsWith('key:')) return `The key ${caller.slice(4)}`
  const address = caller.startsWith('anon:') ? caller.slice(5) : caller
  return address === 'unknown'
    ? 'The client without a valid key'
    : `The client at ${address} without a valid key`
}

/** 1500 as `1.5 s`. */
export const seconds = (ms: number): string => `${Math.round(ms) / 1000} s`

/** `1 request`, `3 requests`. */
export const count = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`
