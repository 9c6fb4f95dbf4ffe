import type { JournalEntry } from '../journal/journal.js'
import type { JudgeTools } from './judge-tools.js'
import type { MatchValue, RequestMatch } from './request-match.js'

/** One field of a request that differs from a match: where, what was wanted, what was there. */
export interface Difference {
  /** `method`, `path`, `query.limit`, `headers.content-type`, `body.name`, `status`, `operation`. */
  field: string
  expected: unknown
  /** What the request had (undefined: absent). */
  received: unknown
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof RegExp)

/** Query and header values are text: a number or boolean is compared, and shown, as its text. */
const asText = (value: MatchValue): string | RegExp =>
  value instanceof RegExp ? value : String(value)

const valueMatches = (expected: MatchValue, received: string | undefined): boolean =>
  received !== undefined &&
  (expected instanceof RegExp ? expected.test(received) : String(expected) === received)

const pathRegExps = new Map<string, RegExp>()

/** `/v1/pets/:petId` as a RegExp over the pathname; a full URL keeps its origin. */
const compilePath = (pattern: string): RegExp => {
  let compiled = pathRegExps.get(pattern)
  if (compiled === undefined) {
    const source = pattern
      .split('/')
      .map((part) =>
        /^:[A-Za-z_][A-Za-z0-9_]*$/.test(part)
          ? '[^/]+'
          : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('/')
    compiled = new RegExp(`^${source}$`, /^https?:/i.test(pattern) ? 'i' : '')
    if (pathRegExps.size < 256) pathRegExps.set(pattern, compiled)
  }
  return compiled
}

const pathOf = (url: URL, pattern: string | RegExp): string =>
  typeof pattern === 'string' && /^https?:/i.test(pattern)
    ? `${url.origin}${url.pathname}`
    : url.pathname

const parseUrl = (url: string): URL | undefined => {
  try {
    return new URL(url)
  } catch {
    return undefined
  }
}

const bodyKey = (path: string, key: string): string =>
  /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`

/** The JSON subset rule: objects by their given keys, arrays element by element (same length), the rest by equality. */
const compareJson = (
  expected: unknown,
  received: unknown,
  path: string,
  out: Difference[],
): void => {
  if (expected instanceof RegExp) {
    if (!(typeof received === 'string' && expected.test(received)))
      out.push({ field: path, expected, received })
    return
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(received) || received.length !== expected.length) {
      out.push({ field: path, expected, received })
      return
    }
    expected.forEach((item, index) => {
      compareJson(item, received[index], `${path}[${index}]`, out)
    })
    return
  }
  if (isRecord(expected)) {
    if (!isRecord(received)) {
      out.push({ field: path, expected, received })
      return
    }
    for (const [key, value] of Object.entries(expected))
      compareJson(
        value,
        Object.hasOwn(received, key) ? received[key] : undefined,
        bodyKey(path, key),
        out,
      )
    return
  }
  if (!Object.is(expected, received)) out.push({ field: path, expected, received })
}

const compareBody = (expected: unknown, entry: JournalEntry, out: Difference[]): void => {
  const text = entry.request.body
  let parsed: unknown
  let isJson = false
  if (text !== null) {
    try {
      parsed = JSON.parse(text)
      isJson = true
    } catch {
      // Not JSON: only a string (or RegExp) can match its text.
    }
  }
  if (!isJson) {
    const received = text ?? undefined
    const ok =
      received !== undefined &&
      (expected instanceof RegExp ? expected.test(received) : expected === received)
    if (!ok) out.push({ field: 'body', expected, received })
    return
  }
  compareJson(expected, parsed, 'body', out)
}

/** `Authorization: Bearer <key>` matches the journal's `keyRef` of that key (the journal never holds the key). */
const authorizationMatches = (
  expected: MatchValue,
  entry: JournalEntry,
  keyRef: JudgeTools['keyRef'],
): boolean => {
  if (typeof expected !== 'string') return false
  const match = /^(\S+)\s+(\S+)$/.exec(expected.trim())
  const sent = entry.request.headers.authorization
  if (match === null || sent === undefined || entry.keyRef === null) return false
  const scheme = sent.split(' ')[0] ?? ''
  return (
    scheme.toLowerCase() === (match[1] ?? '').toLowerCase() &&
    keyRef(match[2] ?? '') === entry.keyRef
  )
}

/**
 * Every field of the entry that differs from the match; empty when it matches.
 *
 * @example
 * compareEntry({ method: 'POST' }, entry, JUDGE_TOOLS) // [{ field: 'method', expected: 'POST', received: 'GET' }]
 */
export const compareEntry = (
  match: RequestMatch,
  entry: JournalEntry,
  tools: Pick<JudgeTools, 'keyRef'>,
): Difference[] => {
  const out: Difference[] = []
  if (match.method !== undefined) {
    const methods = (typeof match.method === 'string' ? [match.method] : match.method).map((m) =>
      m.toUpperCase(),
    )
    if (!methods.includes(entry.method.toUpperCase()))
      out.push({
        field: 'method',
        expected: methods.length === 1 ? methods[0] : methods,
        received: entry.method,
      })
  }
  const url = parseUrl(entry.url)
  if (match.path !== undefined) {
    const received = url === undefined ? entry.url : pathOf(url, match.path)
    const pattern = match.path instanceof RegExp ? match.path : compilePath(match.path)
    pattern.lastIndex = 0
    if (!pattern.test(received)) out.push({ field: 'path', expected: match.path, received })
  }
  if (match.operation !== undefined && match.operation !== entry.operation)
    out.push({ field: 'operation', expected: match.operation, received: entry.operation })
  if (match.query !== undefined) {
    for (const [name, expected] of Object.entries(match.query)) {
      const values = url?.searchParams.getAll(name) ?? []
      if (!values.some((value) => valueMatches(expected, value)))
        out.push({
          field: `query.${name}`,
          expected: asText(expected),
          received: values.length <= 1 ? values[0] : values,
        })
    }
  }
  if (match.headers !== undefined) {
    for (const [rawName, expected] of Object.entries(match.headers)) {
      const name = rawName.toLowerCase()
      const headers = entry.request.headers
      // Own names only: a header named `__proto__` or `constructor` is a name like any other.
      const received = Object.hasOwn(headers, name) ? headers[name] : undefined
      const ok =
        valueMatches(expected, received) ||
        (name === 'authorization' && authorizationMatches(expected, entry, tools.keyRef))
      if (!ok) out.push({ field: `headers.${name}`, expected: asText(expected), received })
    }
  }
  if (match.body !== undefined) compareBody(match.body, entry, out)
  if (match.status !== undefined) {
    const wanted: readonly (number | null)[] = Array.isArray(match.status)
      ? match.status
      : [match.status as number | null]
    if (!wanted.includes(entry.status))
      out.push({
        field: 'status',
        expected: wanted.length === 1 ? wanted[0] : wanted,
        received: entry.status,
      })
  }
  return out
}

/**
 * The entries that match, in journal order.
 *
 * @example
 * findRequests(sandbox.journal.list(), { method: 'POST', path: '/v1/pets' }, JUDGE_TOOLS)
 */
export const findRequests = (
  entries: readonly JournalEntry[],
  match: RequestMatch,
  tools: Pick<JudgeTools, 'keyRef'>,
): JournalEntry[] => entries.filter((entry) => compareEntry(match, entry, tools).length === 0)
