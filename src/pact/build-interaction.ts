// One journal entry as a pact interaction (contract §21); src/pact/to-pact.ts assembles them.
import type { JournalEntry } from '../journal/journal.js'
import { isSecretName } from '../journal/redact-secrets.js'
import type { CheckedAnswer } from './check-against-openapi.js'
import type { PactBody, PactInteraction, PactRegexRule, PactRequest } from './pact-document.js'

/** Pact's provider-state expression: the verifier puts in the `apiKey` its state handler returned. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: Pact's expression syntax, not a template.
const KEY_EXPRESSION = 'Bearer ${apiKey}'

/** What stands for a valid key: the verifier's state handler returns the real one as `apiKey`. */
export const PACT_KEY_PLACEHOLDER = 'Bearer sandbox-api-key'
/** What stands for a credential the sandbox refused: refused again when verified. */
export const PACT_REFUSED_PLACEHOLDER = 'refused-credential'

// The sandbox's own switches: the provider state says what they chose.
const SANDBOX_QUERY = new Set(['__scenario', '__session', '__delay'])
// Vary by time or quota (contract §21), carry the connection, or belong to the sandbox or CORS.
const DROPPED_HEADERS = new Set([
  'date',
  // Each answer's own (contract §22).
  'request-id',
  'retry-after',
  'age',
  'expires',
  'last-modified',
  'etag',
  'host',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'accept-encoding',
  'user-agent',
  'origin',
  'referer',
  'vary',
  'cookie',
  'set-cookie',
  'x-api-key',
  'proxy-authorization',
])
const droppedHeader = (name: string): boolean =>
  DROPPED_HEADERS.has(name) ||
  name.startsWith('x-ratelimit-') ||
  name.startsWith('x-sandbox-') ||
  name.startsWith('access-control-') ||
  name.startsWith('sec-') ||
  isSecretName(name)

const headersOf = (headers: Record<string, string>): Record<string, string[]> | undefined => {
  const kept = Object.entries(headers).filter(([name]) => !droppedHeader(name.toLowerCase()))
  return kept.length === 0
    ? undefined
    : Object.fromEntries(kept.map(([n, v]) => [n.toLowerCase(), [v]]))
}

const mediaOf = (headers: Record<string, string>): string | undefined => headers['content-type']

const isJsonMedia = (media: string | undefined): boolean =>
  media !== undefined && /^application\/([a-z0-9.+-]+\+)?json\b/i.test(media.trim())

/**
 * The deepest a JSON body may nest in a pact. The Pact verifier (the Rust
 * core in pact-core, through serde_json) refuses a whole pact file nested
 * more than 128 levels ("Failed to parse Pact JSON"), and a body sits 5 levels
 * down in it: measured, 122 levels load and 123 do not. 100 leaves room.
 */
export const MAX_PACT_BODY_DEPTH = 100

/** Whether JSON text nests deeper than `max` (brackets outside strings counted; no parse, no recursion). */
const nestsDeeper = (text: string, max: number): boolean => {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92) i++
      else if (c === 34) inString = false
    } else if (c === 34) inString = true
    else if (c === 91 || c === 123) {
      if (++depth > max) return true
    } else if (c === 93 || c === 125) depth--
  }
  return false
}

/**
 * The body as a pact holds it, its parsed JSON (undefined when it is not
 * JSON), whether it nests too deep, and whether its media type says JSON that
 * it is not (`broken`): a verifier would send such a body as a JSON string, so
 * it is written as its bytes (base64), which a verifier sends as they are.
 */
const bodyOf = (
  text: string | null,
  media: string | undefined,
  encoding?: 'base64' | undefined,
): { body?: PactBody; json: unknown; tooDeep?: true; broken?: true } => {
  if (text === null || text === '') return { json: undefined }
  const contentType = media?.split(';')[0]?.trim() ?? 'text/plain'
  // A binary answer (decision 0067): the journal holds its bytes as base64, as Pact writes them.
  if (encoding === 'base64')
    return { body: { content: text, contentType, encoded: 'base64' }, json: undefined }
  if (isJsonMedia(media) && nestsDeeper(text, MAX_PACT_BODY_DEPTH))
    return { body: { content: text, contentType, encoded: false }, json: undefined, tooDeep: true }
  if (isJsonMedia(media)) {
    try {
      const json: unknown = JSON.parse(text)
      return { body: { content: json, contentType, encoded: false }, json }
    } catch {
      const bytes = new TextEncoder().encode(text)
      let binary = ''
      for (const byte of bytes) binary += String.fromCharCode(byte)
      return {
        body: { content: btoa(binary), contentType, encoded: 'base64' },
        json: undefined,
        broken: true,
      }
    }
  }
  return { body: { content: text, contentType, encoded: false }, json: undefined }
}

/** Authorization as the pact holds it: a placeholder the verifier fills, or one it sends refused. */
const authorizationOf = (
  entry: JournalEntry,
  request: PactRequest,
  headers: Record<string, string[]>,
): void => {
  const sent = entry.request.headers.authorization
  if (sent === undefined) return
  if (entry.caller.startsWith('key:')) {
    headers.authorization = [PACT_KEY_PLACEHOLDER]
    request.generators = {
      header: {
        authorization: {
          type: 'ProviderState',
          expression: KEY_EXPRESSION,
          dataType: 'STRING',
        },
      },
    }
    return
  }
  const space = sent.indexOf(' ')
  headers.authorization = [
    space === -1 ? PACT_REFUSED_PLACEHOLDER : `${sent.slice(0, space)} ${PACT_REFUSED_PLACEHOLDER}`,
  ]
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * Headers whose value follows the store's state, not the exchange: how many
 * pets there are. A verifier's provider starts from its state handler's reset,
 * so they are matched by form (a Pact matcher), as Pact users write them.
 */
const STATE_HEADERS: ReadonlyMap<string, string> = new Map([['x-total-count', '^[0-9]+$']])

/** The `id` of a JSON body (a created resource), as text; undefined for none. */
const idOf = (json: unknown): string | undefined => {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined
  const id = (json as { id?: unknown }).id
  return typeof id === 'number' || typeof id === 'string' ? String(id) : undefined
}

/**
 * Matching rules for response headers a provider verified elsewhere, or from
 * a fresh state, answers differently: those bound to the store's state
 * (`X-Total-Count`: any whole number), and those that name the origin the
 * client called (`Link`, `Location`: any origin) or the id the store gave a
 * created resource (`Location` ending in the body's `id`: any id).
 */
const headerRules = (
  headers: Record<string, string[]> | undefined,
  origin: string,
  json: unknown,
): Record<string, PactRegexRule> | undefined => {
  if (headers === undefined) return undefined
  const rules: [string, PactRegexRule][] = []
  const rule = (name: string, regex: string): void => {
    rules.push([name, { combine: 'AND', matchers: [{ match: 'regex', regex }] }])
  }
  const id = idOf(json)
  for (const [name, [value = '']] of Object.entries(headers)) {
    const state = STATE_HEADERS.get(name)
    if (state !== undefined) {
      rule(name, state)
      continue
    }
    const named = origin !== 'null' && value.includes(origin)
    const tail = id === undefined ? undefined : `/${encodeURIComponent(id)}`
    const withId = name === 'location' && tail !== undefined && value.endsWith(tail)
    if (!named && !withId) continue
    const text = withId ? value.slice(0, -(tail as string).length) : value
    let regex = named
      ? text.split(origin).map(escapeRegExp).join('https?://[^/>\\s]+')
      : escapeRegExp(text)
    if (withId) regex += '/[^/?#]+'
    rule(name, `^${regex}$`)
  }
  return rules.length === 0 ? undefined : Object.fromEntries(rules)
}

/** Why an entry is no interaction (it has no HTTP answer), or undefined. */
export const noAnswer = (entry: JournalEntry): string | undefined => {
  if (entry.status === null || entry.response === null)
    return `no HTTP answer (fault ${entry.fault ?? 'unknown'})`
  // An aborted answer is also not delivered (decision 0040): say the more precise reason.
  if (entry.aborted) return 'the client went away before the answer'
  if (!entry.delivered) return 'the answer was not delivered whole (a partial fault)'
  return undefined
}

/** One exchange as a pact would hold it, with its dedup key and what to pre-check. */
export interface Built {
  interaction: PactInteraction
  key: string
  answer: CheckedAnswer
  problems: string[]
  /**
   * Why the exchange is no interaction though it was answered: its answer's
   * body is not the JSON its Content-Type says (`malformed-json`), which no
   * verifier can compare; undefined for an exchange a verifier can replay.
   */
  unreplayable?: string
}

/**
 * One answered entry as a pact interaction; `key` is the same for exchanges a
 * pact holds once (method, path, query, bodies, status, scenario).
 *
 * @example
 * const { interaction, key } = buildInteraction(entry)
 */
export const buildInteraction = (
  entry: JournalEntry & { status: number; response: NonNullable<JournalEntry['response']> },
): Built => {
  const url = new URL(entry.url, 'http://sandbox.invalid')
  const query = new Map<string, string[]>()
  for (const [name, value] of url.searchParams) {
    if (SANDBOX_QUERY.has(name) || isSecretName(name)) continue
    const values = query.get(name) ?? []
    values.push(value)
    query.set(name, values)
  }
  const requestBody = bodyOf(entry.request.body, mediaOf(entry.request.headers))
  const request: PactRequest = { method: entry.method, path: url.pathname }
  if (query.size > 0) request.query = Object.fromEntries(query)
  const requestHeaders = headersOf(entry.request.headers) ?? {}
  delete requestHeaders.authorization
  authorizationOf(entry, request, requestHeaders)
  if (Object.keys(requestHeaders).length > 0) request.headers = requestHeaders
  if (requestBody.body !== undefined) request.body = requestBody.body
  const media = mediaOf(entry.response.headers)
  const responseBody = bodyOf(entry.response.body, media, entry.response.encoding)
  const responseHeaders = headersOf(entry.response.headers)
  const rules = headerRules(responseHeaders, url.origin, responseBody.json)
  const problems: string[] = []
  if (entry.request.bodyTruncated)
    problems.push('the journal kept only the start of the request body')
  if (entry.response.bodyTruncated)
    problems.push('the journal kept only the start of the response body')
  for (const [what, body] of [
    ['request', requestBody],
    ['response', responseBody],
  ] as const)
    if (body.tooDeep === true)
      problems.push(
        `the ${what} body nests deeper than ${MAX_PACT_BODY_DEPTH} levels: a Pact verifier cannot read a pact that deep (it refuses the whole file past 128)`,
      )
  const what = entry.operation ?? `${entry.method} ${url.pathname}`
  const interaction: PactInteraction = {
    type: 'Synchronous/HTTP',
    description: `${what}: ${entry.status}${entry.code === null ? '' : ` ${entry.code}`}`,
    providerStates: [
      {
        name: `scenario ${entry.scenario}`,
        params: {
          scenario: entry.scenario,
          ...(entry.plan === undefined ? {} : { plan: entry.plan }),
        },
      },
    ],
    request,
    response: {
      status: entry.status,
      ...(responseHeaders === undefined ? {} : { headers: responseHeaders }),
      ...(responseBody.body === undefined ? {} : { body: responseBody.body }),
      ...(rules === undefined ? {} : { matchingRules: { header: rules } }),
    },
    pending: false,
  }
  const key = JSON.stringify([
    entry.method,
    url.pathname,
    request.query ?? {},
    entry.request.body,
    entry.status,
    entry.response.body,
    entry.scenario,
  ])
  const unreplayable =
    // A body the journal cut is not JSON either: that one is a problem, listed (not a fault).
    responseBody.broken === true && !entry.response.bodyTruncated
      ? `the answer's body is not the JSON its Content-Type says${entry.fault === undefined ? '' : ` (fault ${entry.fault})`}: no verifier can compare it`
      : undefined
  const answer: CheckedAnswer = {
    operationId: entry.operation,
    method: entry.method,
    path: url.pathname,
    status: entry.status,
    contentType: media,
    json: responseBody.json,
    hasBody: responseBody.body !== undefined,
    gatewayPage: entry.source === 'sandbox' && entry.fault === 'proxy-error',
  }
  return {
    interaction,
    key,
    answer,
    problems,
    ...(unreplayable === undefined ? {} : { unreplayable }),
  }
}
