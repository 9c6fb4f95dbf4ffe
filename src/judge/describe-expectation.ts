// Loaded on demand (a dynamic import): only a failed expectation needs it. It imports
// no code of the sandbox's, so a browser app's bundler gives it a chunk of its own
// without splitting the code that loads at start (decision 0032).
import type { JournalEntry } from '../journal/journal.js'
import type { Difference } from './compare-entry.js'
import type { RequestMatch } from './request-match.js'
import { showBoundedJson } from './show-bounded-json.js'

/** A request as a failed expectation names it. */
export interface ExpectationRequest {
  seq: number
  method: string
  /** The path and query (the origin is left out: it differs between runtimes, not between requests). */
  target: string
  status: number | null
  code: string | null
}

/** A request that did not match, and how. */
export interface ExpectationMiss extends ExpectationRequest {
  differences: Difference[]
}

/** Everything a failed expectation says, for the thrown error and the control API's 409. */
export interface ExpectationFailure {
  message: string
  session: string
  /** Requests in the session's journal. */
  total: number
  /** Undefined: at least one was wanted. */
  times: number | undefined
  matched: ExpectationRequest[]
  /** The nearest misses, nearest first (at most three). */
  misses: ExpectationMiss[]
}

/** Why differences weigh differently: a request to another endpoint is farther than one with another body. */
const FIELD_WEIGHT: ReadonlyMap<string, number> = new Map([
  ['method', 3],
  ['path', 3],
  ['operation', 3],
])

const MAX_MISSES = 3
const MAX_LISTED = 5
const MAX_VALUE_CHARS = 120

const targetOf = (url: string): string => {
  try {
    const parsed = new URL(url)
    return `${parsed.pathname}${parsed.search}`
  } catch {
    return url
  }
}

const requestOf = (entry: JournalEntry): ExpectationRequest => ({
  seq: entry.seq,
  method: entry.method,
  target: targetOf(entry.url),
  status: entry.status,
  code: entry.code,
})

/** A value as the message shows it: JSON, RegExps as written, absence said. */
export const showValue = (value: unknown): string => {
  if (value === undefined) return '(absent)'
  if (value instanceof RegExp) return String(value)
  // Bounded and without recursion: a journaled body nested thousands deep is shown, not a stack overflow.
  const text = showBoundedJson(value, MAX_VALUE_CHARS)
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text
}

const showRequest = (request: ExpectationRequest): string => {
  const answer =
    request.status === null
      ? 'no response'
      : `${request.status}${request.code === null ? '' : ` ${request.code}`}`
  return `#${request.seq} ${request.method} ${request.target} → ${answer}`
}

/** The fields of a match in the order a request line reads. */
const MATCH_ORDER = ['method', 'path', 'operation', 'query', 'headers', 'body', 'status'] as const

/** The match in one line: `method POST, path /v1/pets, body {"name":"Rex"}`. */
export const showMatch = (match: RequestMatch): string => {
  const parts = MATCH_ORDER.filter((field) => match[field] !== undefined).map((field) => {
    const value = match[field]
    return `${field} ${typeof value === 'string' ? value : showValue(value)}`
  })
  return parts.length === 0 ? 'anything' : parts.join(', ')
}

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`

const headline = (input: {
  match: RequestMatch
  times: number | undefined
  matched: number
  total: number
  session: string
}): string => {
  const { match, times, matched, total, session } = input
  const wanted =
    times === undefined ? 'at least one request' : plural(times, 'request').replace(/^0 /, 'no ')
  const where =
    total === 0
      ? `the journal of session "${session}" is empty: no request reached the sandbox`
      : `received ${matched} (of ${plural(total, 'request')} in session "${session}")`
  return `Expected ${wanted} matching ${showMatch(match)}; ${where}.`
}

const weigh = (differences: readonly Difference[]): number =>
  differences.reduce((sum, d) => sum + (FIELD_WEIGHT.get(d.field) ?? 1), 0)

/**
 * Why an expectation failed, in words and as data: the count, the requests
 * that matched (when there were too many), and the nearest misses as a diff
 * (which field differed, expected against received), nearest first.
 *
 * @example
 * const compared = entries.map((entry) => ({ entry, differences: compareEntry(match, entry) }))
 * throw new RequestExpectationError(describeExpectation({ compared, match, times: 1, session: 'default' }))
 */
export const describeExpectation = (input: {
  /** Every entry of the journal with its differences from the match (`compareEntry`), in journal order. */
  compared: readonly { entry: JournalEntry; differences: Difference[] }[]
  match: RequestMatch
  times: number | undefined
  session: string
}): ExpectationFailure => {
  const { match, times, session } = input
  const entries = input.compared
  const matched: ExpectationRequest[] = []
  const compared: { entry: JournalEntry; differences: Difference[]; weight: number }[] = []
  for (const { entry, differences } of entries) {
    if (differences.length === 0) matched.push(requestOf(entry))
    else compared.push({ entry, differences, weight: weigh(differences) })
  }
  const tooFew = times === undefined ? matched.length === 0 : matched.length < times
  const misses: ExpectationMiss[] = tooFew
    ? compared
        .sort((a, b) => a.weight - b.weight || b.entry.seq - a.entry.seq)
        .slice(0, MAX_MISSES)
        .map(({ entry, differences }) => ({ ...requestOf(entry), differences }))
    : []

  const lines = [
    headline({ match, times, matched: matched.length, total: entries.length, session }),
  ]
  if (matched.length > 0) {
    lines.push('', 'Matching requests:')
    for (const request of matched.slice(0, MAX_LISTED)) lines.push(`  ${showRequest(request)}`)
    if (matched.length > MAX_LISTED) lines.push(`  … and ${matched.length - MAX_LISTED} more`)
  }
  if (misses.length > 0) {
    lines.push('', 'Nearest misses (- expected, + received):')
    for (const miss of misses) {
      lines.push('', `  ${showRequest(miss)}`)
      for (const difference of miss.differences) {
        lines.push(`    ${difference.field}`)
        lines.push(`      - ${showValue(difference.expected)}`)
        lines.push(`      + ${showValue(difference.received)}`)
      }
    }
  }
  return {
    message: lines.join('\n'),
    session,
    total: entries.length,
    times,
    matched,
    misses,
  }
}
