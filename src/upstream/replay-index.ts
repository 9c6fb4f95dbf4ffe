import { parseAuthorization } from '../auth/parse-authorization.js'
import { connectionTokens, isHopByHop } from '../http/hop-by-hop.js'
import { keyRef } from '../journal/key-ref.js'
import { isSecretName } from '../journal/redact-secrets.js'
import type { HarInput } from './upstream-options.js'

/** One recorded answer, ready to serve. */
export interface RecordedAnswer {
  status: number
  headers: ReadonlyArray<readonly [string, string]>
  body: Uint8Array
  /** The body as text (for the validator and the journal). */
  text: string
  /** The recording holds no response (a failed connection): fail it again. */
  failed: boolean
  /** The base URL the recorded request went to (its links are pointed at the sandbox). */
  base: string
}

/** What a request is matched by: method, path below the base path, query, and the body of a POST. */
export interface ReplayRequest {
  method: string
  /** The path below the base path, e.g. `/pets/7`. */
  path: string
  /** The raw query, with or without its `?`. */
  search: string
  body: Uint8Array | null
  /** The ref (`keyRef`) of the bearer token sent: a recorded 401 is served to that key only. */
  keyRef?: string | undefined
}

/** The recorded answers by request; each session walks every sequence on its own. */
export interface ReplayIndex {
  /** Answers indexed (entries of the archive under the base path). */
  readonly answers: number
  /** Entries left out: outside the base path, not an HTTP exchange, or sent without a Bearer token. */
  readonly skipped: number
  /** The next answer to this request in this session (the last one repeats), or undefined for none. */
  next(session: string, request: ReplayRequest): RecordedAnswer | undefined
  /** Rewinds a session's sequences (reset, dropped session). */
  rewind(session: string): void
}

// Not passed on: the text of a HAR is decoded, so its length and encoding no longer hold.
const NOT_REPLAYED: ReadonlySet<string> = new Set(['content-length', 'content-encoding'])
const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH'])
const decoder = new TextDecoder()
const encoder = new TextEncoder()

const canonicalBody = (text: string): string => {
  try {
    return JSON.stringify(JSON.parse(text))
  } catch {
    return text
  }
}

/**
 * The key of a request: method, path, query (without `__` parameters, secret
 * values redacted as the journal and recordings have them, sorted by name),
 * and for POST, PUT and PATCH the body (JSON compared without its whitespace).
 *
 * @example
 * replayKey({ method: 'GET', path: '/pets', search: '?limit=5&__scenario=x', body: null }) // 'GET /pets?limit=5'
 */
export const replayKey = (request: ReplayRequest, bodyText?: string): string => {
  const pairs: [string, string][] = []
  for (const [name, value] of new URLSearchParams(request.search)) {
    if (name.startsWith('__')) continue
    pairs.push([name, isSecretName(name) ? '(redacted)' : value])
  }
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
  const query = pairs.map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v)}`)
  const head = `${request.method} ${request.path}${query.length === 0 ? '' : `?${query.join('&')}`}`
  if (!BODY_METHODS.has(request.method)) return head
  const text = bodyText ?? (request.body === null ? '' : decoder.decode(request.body))
  return `${head}\n${canonicalBody(text)}`
}

/** The part of a path below one of the base paths (a gateway's prefix before it allowed). */
const belowBase = (pathname: string, bases: readonly string[]): string | undefined => {
  for (const base of bases) {
    if (pathname === base) return ''
    if (pathname.startsWith(`${base}/`)) return pathname.slice(base.length)
  }
  for (const base of bases) {
    const at = pathname.indexOf(`${base}/`)
    if (at > 0) return pathname.slice(at + base.length)
  }
  return undefined
}

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined

const fromBase64 = (text: string): Uint8Array => {
  const binary = atob(text)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

const readHeaders = (value: unknown): [string, string][] => {
  const list = Array.isArray(value) ? value.map(record) : []
  const pairs: [string, string][] = []
  for (const header of list) {
    if (typeof header?.name === 'string' && typeof header.value === 'string')
      pairs.push([header.name, header.value])
  }
  const listed = connectionTokens(pairs.find(([n]) => n.toLowerCase() === 'connection')?.[1])
  return pairs.filter(([name]) => {
    const lower = name.toLowerCase()
    // HTTP/2 pseudo-headers (`:status`) in a browser's export are not headers.
    return !lower.startsWith(':') && !NOT_REPLAYED.has(lower) && !isHopByHop(lower, listed)
  })
}

const toAnswer = (entry: Record<string, unknown>, base: string): RecordedAnswer | undefined => {
  const response = record(entry.response)
  const status = response?.status
  if (typeof status !== 'number') return undefined
  if (status === 0 || typeof entry._error === 'string')
    return { status: 0, headers: [], body: new Uint8Array(0), text: '', failed: true, base }
  const content = record(response?.content)
  const raw = typeof content?.text === 'string' ? content.text : ''
  const body = content?.encoding === 'base64' ? fromBase64(raw) : encoder.encode(raw)
  return {
    status,
    headers: readHeaders(response?.headers),
    body,
    text: content?.encoding === 'base64' ? decoder.decode(body) : raw,
    failed: false,
    base,
  }
}

/**
 * The key a recorded request sent, as a ref: the sandbox's `_sandbox.keyRef`
 * (null: no Bearer token), else the archive's `Authorization` header (a
 * browser's export); undefined when the archive cannot tell (no header, as a
 * sanitized export has it, or a redacted one).
 */
const recordedKey = (
  entry: Record<string, unknown>,
  request: Record<string, unknown> | undefined,
): string | null | undefined => {
  const own = record(entry._sandbox)
  if (own !== undefined && (typeof own.keyRef === 'string' || own.keyRef === null))
    return own.keyRef
  const headers = Array.isArray(request?.headers) ? request.headers.map(record) : []
  const value = headers.find(
    (h) => typeof h?.name === 'string' && h.name.toLowerCase() === 'authorization',
  )?.value
  if (typeof value !== 'string' || value.endsWith('(redacted)')) return undefined
  const auth = parseAuthorization(value)
  return auth.kind === 'bearer' ? keyRef(auth.token) : null
}

/** A recorded answer and the key it belongs to: a 401's key (its ref), or undefined for every key. */
interface Recorded {
  answer: RecordedAnswer
  boundTo: string | undefined
}

/**
 * Indexes a HAR archive for replay (contract §17): the sandbox's own
 * recordings, `GET /__sandbox/requests.har`, or a browser's export. Entries
 * below the base path are kept as numbered sequences per request, in the
 * archive's order; others (the page's own files) are skipped, and so are
 * requests sent without a Bearer token (the sandbox answers those itself). A
 * recorded 401 is an answer about a key: it is served only to the key that got
 * it, when the archive tells which (decision 0036).
 *
 * @example
 * const index = createReplayIndex(har, ['/v1'])
 * index.next('default', { method: 'GET', path: '/pets', search: '', body: null })
 */
export const createReplayIndex = (har: HarInput, bases: readonly string[]): ReplayIndex => {
  const sequences = new Map<string, Recorded[]>()
  let answers = 0
  let skipped = 0
  for (const item of har.log.entries) {
    const entry = record(item)
    const request = record(entry?.request)
    const method = request?.method
    let url: URL | undefined
    try {
      url = typeof request?.url === 'string' ? new URL(request.url) : undefined
    } catch {
      url = undefined
    }
    const path = url === undefined ? undefined : belowBase(url.pathname, bases)
    const answer =
      entry === undefined || url === undefined || path === undefined
        ? undefined
        : toAnswer(
            entry,
            `${url.origin}${url.pathname.slice(0, url.pathname.length - path.length)}`,
          )
    const sentKey = entry === undefined ? undefined : recordedKey(entry, request)
    if (
      typeof method !== 'string' ||
      url === undefined ||
      path === undefined ||
      !answer ||
      sentKey === null
    ) {
      skipped++
      continue
    }
    const postData = record(request?.postData)
    const bodyText = typeof postData?.text === 'string' ? postData.text : ''
    const key = replayKey(
      { method: method.toUpperCase(), path, search: url.search, body: null },
      bodyText,
    )
    const recorded = { answer, boundTo: answer.status === 401 ? sentKey : undefined }
    const sequence = sequences.get(key)
    if (sequence === undefined) sequences.set(key, [recorded])
    else sequence.push(recorded)
    answers++
  }
  const cursors = new Map<string, Map<string, number>>()
  return {
    answers,
    skipped,
    next(session, request) {
      const key = replayKey(request)
      const sequence = sequences.get(key)
      if (sequence === undefined) return undefined
      // A sequence with a key's 401 in it is walked per key: another key skips that answer.
      const bound = sequence.some((r) => r.boundTo !== undefined)
      const served = bound
        ? sequence.filter((r) => r.boundTo === undefined || r.boundTo === request.keyRef)
        : sequence
      if (served.length === 0) return undefined
      const position = bound ? `${key}\n${request.keyRef ?? ''}` : key
      let positions = cursors.get(session)
      if (positions === undefined) {
        positions = new Map()
        cursors.set(session, positions)
      }
      const at = positions.get(position) ?? 0
      positions.set(position, at + 1)
      return served[Math.min(at, served.length - 1)]?.answer
    },
    rewind(session) {
      cursors.delete(session)
    },
  }
}
