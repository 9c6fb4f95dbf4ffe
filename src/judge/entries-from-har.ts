// Loaded on demand: only `petstore-sandbox report --from FILE.har` reads a HAR.
import * as z from 'zod/mini'
import type { OperationId } from '../contract/operation-ids.js'
import { FAULT_NAMES, UNDELIVERED_FAULTS } from '../faults/shape-fault.js'
import type { Fault } from '../http/types.js'
import type { AnswerSource, JournalEntry, JournalMessage } from '../journal/journal.js'
import { callerOf, keyRef } from '../journal/key-ref.js'
import { redactHeaders, redactUrl } from '../journal/redact-secrets.js'
import { API_ROUTER } from '../operations/routes.js'

const NameValues = z.array(z.object({ name: z.string(), value: z.string() }))

const HarSandboxSchema = z.object({
  seq: z.optional(z.number()),
  session: z.optional(z.string()),
  scenario: z.optional(z.string()),
  plan: z.optional(z.nullable(z.string())),
  fault: z.optional(z.nullable(z.enum(FAULT_NAMES))),
  // An added operation's id too (decision 0042), as the sandbox that wrote the HAR named it.
  operation: z.optional(z.nullable(z.string().check(z.maxLength(200)))),
  caller: z.optional(z.string()),
  keyRef: z.optional(z.nullable(z.string())),
  source: z.optional(z.enum(['sandbox', 'upstream', 'replay'])),
  aborted: z.optional(z.boolean()),
  delivered: z.optional(z.boolean()),
  delayMs: z.optional(z.number()),
  violations: z.optional(z.array(z.object({ rule: z.string(), message: z.string() }))),
})

const HarEntrySchema = z.object({
  startedDateTime: z.string().check(z.refine((v) => !Number.isNaN(Date.parse(v)), 'a date')),
  time: z.optional(z.number()),
  request: z.object({
    method: z.string(),
    url: z.string(),
    headers: z.optional(NameValues),
    postData: z.optional(z.object({ text: z.optional(z.string()) })),
  }),
  response: z.object({
    status: z.number(),
    headers: z.optional(NameValues),
    content: z.optional(
      z.object({ text: z.optional(z.string()), encoding: z.optional(z.string()) }),
    ),
  }),
  _error: z.optional(z.nullable(z.string())),
  _sandbox: z.optional(HarSandboxSchema),
})

const HarSchema = z.object({ log: z.object({ entries: z.array(HarEntrySchema) }) })

type HarInput = z.infer<typeof HarEntrySchema>

/** One session's requests read back from a HAR, as journal entries. */
export interface HarSession {
  session: string
  entries: JournalEntry[]
}

const headersOf = (
  list: readonly { name: string; value: string }[] = [],
): Record<string, string> => {
  const out = new Map<string, string>()
  for (const { name, value } of list) {
    const key = name.toLowerCase()
    // HTTP/2 pseudo-headers (Chrome's exports) are not headers.
    if (key.startsWith(':')) continue
    const before = out.get(key)
    out.set(key, before === undefined ? value : `${before}, ${value}`)
  }
  // Own properties: a header named `__proto__` stays a header.
  return Object.fromEntries(out)
}

/** A body as the journal holds it: at most `max` characters, marked when cut. */
const capped = (text: string, max: number): { body: string; bodyTruncated: boolean } =>
  text.length > max
    ? { body: text.slice(0, max), bodyTruncated: true }
    : { body: text, bodyTruncated: false }

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true })

const textOf = (
  content: { text?: string | undefined; encoding?: string | undefined },
  max: number,
): { body: string; bodyTruncated: boolean; encoding?: 'base64' } => {
  const text = content.text ?? ''
  if (content.encoding !== 'base64') return capped(text, max)
  // Decode no more than the cap can use: a UTF-16 unit is at most 3 bytes of UTF-8.
  const room = Math.ceil((Math.min(max, text.length) * 3 + 3) / 3) * 4
  const cut = text.length > room
  try {
    const bytes = Uint8Array.from(atob(cut ? text.slice(0, room) : text), (c) => c.charCodeAt(0))
    // Bytes that are not UTF-8 text (an image) stay base64, as the journal keeps a binary answer.
    if (!cut && text.length <= max) {
      try {
        STRICT_UTF8.decode(bytes)
      } catch {
        return { body: text, bodyTruncated: false, encoding: 'base64' }
      }
    }
    const decoded = capped(new TextDecoder().decode(bytes), max)
    return cut ? { body: decoded.body, bodyTruncated: true } : decoded
  } catch {
    return capped(text, max)
  }
}

const errorCode = (status: number, body: string | null): string | null => {
  if (status < 400 || body === null) return null
  try {
    const code = (JSON.parse(body) as { code?: unknown }).code
    return typeof code === 'string' ? code : null
  } catch {
    return null
  }
}

/** The operation a URL of any base path names: the longest tail the API's routes match. */
const operationOf = (method: string, url: URL): OperationId | null => {
  const path = url.pathname
  const routed = method === 'HEAD' ? 'GET' : method
  for (let i = path.indexOf('/'); i !== -1; i = path.indexOf('/', i + 1)) {
    const match = API_ROUTER.match(routed, path.slice(i))
    if (match.kind === 'found') return match.value.id
  }
  return null
}

const sessionOf = (url: URL, headers: Record<string, string>): string =>
  url.searchParams.get('__session') ?? headers['x-sandbox-session'] ?? 'default'

const toEntry = (har: HarInput, maxBodyChars: number): JournalEntry => {
  const own = har._sandbox
  let url: URL | undefined
  try {
    url = new URL(har.request.url)
  } catch {
    url = undefined
  }
  const requestHeaders = headersOf(har.request.headers)
  const failed = har.response.status === 0
  const responseHeaders = headersOf(har.response.headers)
  const responseText =
    failed || har.response.content === undefined ? null : textOf(har.response.content, maxBodyChars)
  const responseBody = responseText === null ? null : responseText.body
  const status = failed ? null : har.response.status
  const bearer = /^bearer\s+(\S+)$/i.exec(requestHeaders.authorization ?? '')?.[1]
  // The sandbox's own view names the fault; a browser's HAR says only how the connection failed.
  const fault: Fault | undefined =
    own?.fault ??
    (failed ? (/TIMED_OUT/.test(har._error ?? '') ? 'timeout' : 'network-error') : undefined)
  // A browser's `net::ERR_ABORTED`: the page gave up on the request.
  const aborted = own?.aborted ?? /ERR_ABORTED/.test(har._error ?? '')
  const requestText = har.request.postData?.text
  const request: JournalMessage = {
    // A journal entry's secrets are redacted (contract §14), whoever recorded the HAR.
    headers: redactHeaders(requestHeaders),
    ...(requestText === undefined
      ? { body: null, bodyTruncated: false }
      : capped(requestText, maxBodyChars)),
  }
  return {
    seq: own?.seq ?? 0,
    time: new Date(Date.parse(har.startedDateTime)).toISOString(),
    session: own?.session ?? (url === undefined ? 'default' : sessionOf(url, requestHeaders)),
    method: har.request.method.toUpperCase(),
    url: redactUrl(har.request.url),
    operation:
      own?.operation !== undefined
        ? own.operation
        : url === undefined
          ? null
          : operationOf(har.request.method.toUpperCase(), url),
    // Without the sandbox's view, a bearer token the answer did not refuse stands for a valid key.
    caller:
      own?.caller ??
      callerOf({
        token: bearer,
        keyValid: bearer !== undefined && status !== 401,
        clientAddress: undefined,
      }),
    keyRef: own?.keyRef !== undefined ? own.keyRef : bearer === undefined ? null : keyRef(bearer),
    status,
    code: status === null ? null : errorCode(status, responseBody),
    fault,
    scenario: own?.scenario ?? 'default',
    plan: own?.plan ?? undefined,
    source: (own?.source ?? 'sandbox') as AnswerSource,
    violations: own?.violations ?? [],
    aborted,
    delivered:
      own?.delivered ??
      (!failed &&
        !aborted &&
        (har._error ?? '') === '' &&
        (fault === undefined || !UNDELIVERED_FAULTS.has(fault))),
    durationMs: 0,
    // The sandbox's own delay; for another recorder, the time until the client had the answer.
    delayMs: own?.delayMs ?? Math.max(0, Math.round(har.time ?? 0)),
    request,
    response: failed
      ? null
      : {
          headers: redactHeaders(responseHeaders),
          body: responseBody,
          bodyTruncated: responseText?.bodyTruncated ?? false,
          ...(responseText?.encoding === undefined ? {} : { encoding: responseText.encoding }),
        },
  }
}

/**
 * Reads a HAR (the sandbox's `requests.har`, the upstream mode's recording,
 * or a browser's export) back as journal entries, one list per session. With
 * the sandbox's `_sandbox` field every entry is what the journal held; without
 * it, the caller and `keyRef` come from the `Authorization` header (the same
 * `keyRef` as the journal's), the operation from the URL, the session from
 * `__session` or `X-Sandbox-Session`, and `seq` from the order. Throws a
 * TypeError naming the first problem when the text is not a HAR.
 *
 * @example
 * const [first] = entriesFromHAR(JSON.parse(readFileSync('session.har', 'utf8')))
 */
export const entriesFromHAR = (har: unknown): HarSession[] => {
  const parsed = HarSchema.safeParse(har)
  if (!parsed.success) throw notHar(parsed.error.issues[0])
  const sessions = new Map<string, JournalEntry[]>()
  const numbering = createHarNumbering()
  for (const har of parsed.data.log.entries) {
    const entry = numbering(toEntry(har, Number.POSITIVE_INFINITY), har._sandbox?.seq)
    let list = sessions.get(entry.session)
    if (list === undefined) {
      list = []
      sessions.set(entry.session, list)
    }
    list.push(entry)
  }
  return [...sessions].map(([session, entries]) => ({ session, entries }))
}

/** The error for a HAR whose shape is wrong, naming where (`log.entries.3.request.url`). */
export const notHar = (
  issue: { path: readonly PropertyKey[]; message: string } | undefined,
  prefix: readonly PropertyKey[] = [],
): TypeError => {
  const where = issue === undefined ? '' : [...prefix, ...issue.path].map(String).join('.')
  return new TypeError(
    `Failed to read the HAR: ${where === '' ? 'it' : where} is not what HAR 1.2 holds (${issue?.message ?? 'invalid'}). Export it again from the sandbox, a browser or a recording.`,
  )
}

/**
 * Numbers entries a foreign recorder wrote without the sandbox's `seq`: 1, 2, 3…
 * within each session, in the file's order (the sandbox's own `seq` is kept).
 */
export const createHarNumbering = (): ((
  entry: JournalEntry,
  seq: number | undefined,
) => JournalEntry) => {
  const counts = new Map<string, number>()
  return (entry, seq) => {
    const count = (counts.get(entry.session) ?? 0) + 1
    counts.set(entry.session, count)
    if (seq === undefined) entry.seq = count
    return entry
  }
}

/**
 * One entry of `log.entries` (the value at `index`) as a journal entry, its
 * bodies cut at `maxBodyChars` characters (`bodyTruncated` says so), the
 * sandbox's own `seq` or undefined beside it. Throws the TypeError of
 * {@link entriesFromHAR} when the entry is not a HAR entry.
 *
 * @example
 * const { entry } = journalEntryOfHar(raw, 0, 1_048_576)
 */
export const journalEntryOfHar = (
  raw: unknown,
  index: number,
  maxBodyChars: number,
): { entry: JournalEntry; seq: number | undefined } => {
  const parsed = HarEntrySchema.safeParse(raw)
  if (!parsed.success) throw notHar(parsed.error.issues[0], ['log', 'entries', index])
  return { entry: toEntry(parsed.data, maxBodyChars), seq: parsed.data._sandbox?.seq }
}
