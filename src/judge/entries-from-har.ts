// Loaded on demand: only `petstore-sandbox report --from FILE.har` reads a HAR.
import * as z from 'zod/mini'
import type { OperationId } from '../contract/operation-ids.js'
import type { TransportFault } from '../http/types.js'
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
  fault: z.optional(z.nullable(z.enum(['network-error', 'timeout']))),
  // An added operation's id too (decision 0042), as the sandbox that wrote the HAR named it.
  operation: z.optional(z.nullable(z.string().check(z.maxLength(200)))),
  caller: z.optional(z.string()),
  keyRef: z.optional(z.nullable(z.string())),
  source: z.optional(z.enum(['sandbox', 'upstream', 'replay'])),
  aborted: z.optional(z.boolean()),
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

const textOf = (content: { text?: string | undefined; encoding?: string | undefined }): string => {
  const text = content.text ?? ''
  if (content.encoding !== 'base64') return text
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(text), (c) => c.charCodeAt(0)))
  } catch {
    return text
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

const toEntry = (har: HarInput): JournalEntry => {
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
  const responseBody =
    failed || har.response.content === undefined ? null : textOf(har.response.content)
  const status = failed ? null : har.response.status
  const bearer = /^bearer\s+(\S+)$/i.exec(requestHeaders.authorization ?? '')?.[1]
  const fault: TransportFault | undefined = failed
    ? (own?.fault ?? (/TIMED_OUT/.test(har._error ?? '') ? 'timeout' : 'network-error'))
    : undefined
  const request: JournalMessage = {
    // A journal entry's secrets are redacted (contract §14), whoever recorded the HAR.
    headers: redactHeaders(requestHeaders),
    body: har.request.postData?.text ?? null,
    bodyTruncated: false,
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
    // A browser's `net::ERR_ABORTED`: the page gave up on the request.
    aborted: own?.aborted ?? /ERR_ABORTED/.test(har._error ?? ''),
    durationMs: 0,
    // The sandbox's own delay; for another recorder, the time until the client had the answer.
    delayMs: own?.delayMs ?? Math.max(0, Math.round(har.time ?? 0)),
    request,
    response: failed
      ? null
      : { headers: redactHeaders(responseHeaders), body: responseBody, bodyTruncated: false },
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
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue === undefined ? '' : issue.path.join('.')
    throw new TypeError(
      `Failed to read the HAR: ${where === '' ? 'it' : where} is not what HAR 1.2 holds (${issue?.message ?? 'invalid'}). Export it again from the sandbox, a browser or a recording.`,
    )
  }
  const sessions = new Map<string, JournalEntry[]>()
  for (const har of parsed.data.log.entries) {
    const entry = toEntry(har)
    let list = sessions.get(entry.session)
    if (list === undefined) {
      list = []
      sessions.set(entry.session, list)
    }
    if (har._sandbox?.seq === undefined) entry.seq = list.length + 1
    list.push(entry)
  }
  return [...sessions].map(([session, entries]) => ({ session, entries }))
}
