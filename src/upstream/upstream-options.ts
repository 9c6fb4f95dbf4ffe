import type { Har, HarEntry } from '../journal/to-har.js'
import { replayArchiveProblem } from './check-replay-archive.js'

/** How a session answers: the sandbox itself, the upstream deployment, or a recording of it. */
export type SessionMode = 'sandbox' | 'upstream' | 'replay'

/** Every mode, in the order the control API and the dashboard list them. */
export const SESSION_MODES: readonly SessionMode[] = ['sandbox', 'upstream', 'replay']

/** A recording to replay: a HAR 1.2 archive (the sandbox's, or a browser's export). */
export interface HarInput {
  log: { entries: readonly unknown[] }
}

/** Called with the whole recording after each forwarded answer (a promise is awaited by `flush`). */
export type RecordSink = (har: Har) => void | Promise<void>

/**
 * Takes each recorded entry as it comes and keeps none in memory (a file
 * appended to, a stream): the answer waits for `append` to resolve, so a slow
 * writer slows the traffic instead of piling entries up.
 */
export interface RecordAppender {
  append(entry: HarEntry): void | Promise<void>
}

/**
 * The `upstream` option (contract §17): put the sandbox in front of a real
 * deployment. A string is the deployment's base URL.
 */
export interface UpstreamOptions {
  /** The deployment's base URL, its base path included: `https://staging.example.test/v1`. */
  url?: string | undefined
  /**
   * Sent as `Authorization: Bearer <key>` instead of the client's header, so the
   * real key stays with the sandbox; clients then need a valid sandbox key.
   */
  key?: string | undefined
  /** How long the whole answer may take, in ms (default 10,000): then 504 `upstream_timeout`. */
  timeoutMs?: number | undefined
  /**
   * The most bytes an upstream answer's body may have, as received and once
   * decompressed (default 10 MiB, up to 256 MiB): past it, 502
   * `upstream_unavailable` naming the limit. Recorded bodies are bounded by it too.
   */
  maxBodyBytes?: number | undefined
  /** Replace an answer that breaks a `spec.*` rule with 502 `upstream_contract_violation` (default false). */
  strict?: boolean | undefined
  /** Count forwarded requests against the sandbox's own quotas too, answering 429 locally (default false). */
  localLimits?: boolean | undefined
  /**
   * Keep forwarded traffic as HAR 1.2: true (in memory, `sandbox.upstream.recording()`),
   * a function called with the whole recording after each forwarded answer, an
   * appender `{ append(entry) }` taking each entry (none kept in memory), or a
   * file path (the Node runtimes and the server append to it as they go).
   */
  record?: boolean | string | RecordSink | RecordAppender | undefined
  /** Serve recorded answers: a HAR object, or a file path (Node runtimes and the server). */
  replay?: string | HarInput | undefined
  /** An unmatched request in replay mode: 404 `replay_miss` (`miss`, the default) or the sandbox's own answer. */
  replayFallback?: 'miss' | 'sandbox' | undefined
  /** The mode every session starts in (default `replay` with `replay`, else `upstream`). */
  mode?: SessionMode | undefined
}

/** The `upstream` option, checked. */
export interface ResolvedUpstream {
  /** The upstream's base URL without a trailing slash; undefined when only replaying. */
  url: string | undefined
  key: string | undefined
  timeoutMs: number
  maxBodyBytes: number
  strict: boolean
  localLimits: boolean
  /** Whether forwarded traffic is recorded, and where: memory (sink or not), or an appender only. */
  record: { sink: RecordSink | undefined; appender: RecordAppender | undefined } | undefined
  replay: HarInput | undefined
  replayFallback: 'miss' | 'sandbox'
  startMode: SessionMode
  /** The modes a session may be moved to. */
  modes: readonly SessionMode[]
}

export const DEFAULT_UPSTREAM_TIMEOUT_MS = 10_000
/** 10 MiB: a page of the API is far smaller; a bomb or an endless body stops here. */
export const DEFAULT_UPSTREAM_MAX_BODY_BYTES = 10 * 1024 * 1024
/** 256 MiB: a body is held whole (and as text) while it is checked and passed on. */
export const MAX_UPSTREAM_MAX_BODY_BYTES = 256 * 1024 * 1024
const MAX_TIMEOUT_MS = 300_000
const KEY_TEXT = /^[A-Za-z0-9\-._~+/]+=*$/

const fail = (reason: string): never => {
  throw new TypeError(`Failed to create the sandbox: upstream ${reason}`)
}

const checkUrl = (text: unknown): string => {
  if (typeof text !== 'string') return fail(`url must be a string, got ${typeof text}.`)
  let url: URL | undefined
  try {
    url = new URL(text)
  } catch {
    url = undefined
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    return fail(
      `"${text}" is not an http(s) URL. Give the deployment's base URL, e.g. https://staging.example.test/v1.`,
    )
  if (url.search !== '' || url.hash !== '')
    return fail(`"${text}" has a query or fragment; give the base URL only.`)
  return url.href.replace(/\/+$/, '')
}

const isAppender = (value: unknown): value is RecordAppender =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { append?: unknown }).append === 'function'

const isHar = (value: unknown): value is HarInput => {
  if (typeof value !== 'object' || value === null || !('log' in value)) return false
  const log: unknown = value.log
  return typeof log === 'object' && log !== null && 'entries' in log && Array.isArray(log.entries)
}

/**
 * Checks the `upstream` option once, at creation (programmer errors fail fast).
 * A file path for `record` or `replay` must have been turned into a sink or a
 * HAR by a Node runtime before it reaches the core.
 *
 * @example
 * resolveUpstreamOptions('http://127.0.0.1:4011/v1') // { url: 'http://127.0.0.1:4011/v1', startMode: 'upstream', … }
 */
export const resolveUpstreamOptions = (option: string | UpstreamOptions): ResolvedUpstream => {
  const options: UpstreamOptions = typeof option === 'string' ? { url: option } : option
  if (typeof options !== 'object' || options === null)
    return fail(`must be a URL or an object, got ${options === null ? 'null' : typeof options}.`)
  const url = options.url === undefined ? undefined : checkUrl(options.url)
  const {
    key,
    timeoutMs = DEFAULT_UPSTREAM_TIMEOUT_MS,
    maxBodyBytes = DEFAULT_UPSTREAM_MAX_BODY_BYTES,
    record,
    replay,
  } = options
  if (key !== undefined && (typeof key !== 'string' || !KEY_TEXT.test(key)))
    fail('key must be a bearer token (letters, digits and - . _ ~ + /).')
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_TIMEOUT_MS)
    fail(`timeoutMs must be a whole number from 1 to ${MAX_TIMEOUT_MS}, got ${String(timeoutMs)}.`)
  if (
    !Number.isSafeInteger(maxBodyBytes) ||
    maxBodyBytes < 1 ||
    maxBodyBytes > MAX_UPSTREAM_MAX_BODY_BYTES
  )
    fail(
      `maxBodyBytes must be a whole number from 1 to ${MAX_UPSTREAM_MAX_BODY_BYTES}, got ${String(maxBodyBytes)}.`,
    )
  if (typeof record === 'string' || typeof replay === 'string')
    fail(
      'record and replay take a file path only in Node: use petstore-sandbox/node or petstore-sandbox/server (or the CLI), or pass a function (record) and a HAR object (replay).',
    )
  const appender = isAppender(record) ? record : undefined
  if (
    record !== undefined &&
    typeof record !== 'boolean' &&
    typeof record !== 'function' &&
    appender === undefined
  )
    fail('record must be true, a file path, a function receiving the HAR or { append(entry) }.')
  if (replay !== undefined && !isHar(replay))
    fail('replay is not a HAR archive: it needs log.entries, a list.')
  const problem = replay === undefined ? undefined : replayArchiveProblem(replay as HarInput)
  if (problem !== undefined)
    fail(`replay cannot be served: ${problem}. Fix or remove the entry, or record again.`)
  const fallback = options.replayFallback ?? 'miss'
  if (fallback !== 'miss' && fallback !== 'sandbox')
    fail(`replayFallback must be "miss" or "sandbox", got ${JSON.stringify(fallback)}.`)
  if (url === undefined && replay === undefined)
    fail('needs a url to forward to, or a recording to replay.')
  const modes: SessionMode[] = ['sandbox']
  if (url !== undefined) modes.push('upstream')
  if (replay !== undefined) modes.push('replay')
  const startMode = options.mode ?? (replay !== undefined ? 'replay' : 'upstream')
  if (!modes.includes(startMode))
    fail(
      `mode "${String(startMode)}" needs ${startMode === 'replay' ? 'replay' : 'a url'}; this sandbox has ${modes.join(', ')}.`,
    )
  return {
    url,
    key,
    timeoutMs,
    maxBodyBytes,
    strict: options.strict === true,
    localLimits: options.localLimits === true,
    record:
      record === undefined || record === false
        ? undefined
        : {
            sink: typeof record === 'function' ? (record as RecordSink) : undefined,
            appender,
          },
    replay: replay as HarInput | undefined,
    replayFallback: fallback,
    startMode,
    modes,
  }
}
