import type { JournalEntry } from '../journal/journal.js'
import {
  redactHeader,
  redactHeaders,
  redactKnownSecret,
  redactKnownSecretInBinary,
  redactUrl,
} from '../journal/redact-secrets.js'
import { type Har, type HarEntry, statusTextOf, toHAR } from '../journal/to-har.js'
import type { Answered, OutgoingRequest } from './call-upstream.js'
import type { RecordAppender, RecordSink } from './upstream-options.js'

/** The forwarded traffic kept as HAR 1.2, in the order it was answered. */
export interface Recording {
  /**
   * Records one forwarded request and the upstream's answer (full bodies,
   * secrets redacted); a promise when an appender is writing it (the answer waits).
   */
  add(input: RecordInput): void | Promise<void>
  /** The recording so far (no entries with an appender: it keeps none). */
  toHAR(): Har
  /** How many entries were recorded. */
  readonly count: number
  /** Resolves once the sink has taken the newest recording (a file written, say). */
  flush(): Promise<void>
}

export interface RecordInput {
  /** The journal's entry of the request (what `_sandbox` and `_violations` say). */
  entry: JournalEntry
  /** What was sent upstream. */
  sent: OutgoingRequest
  /** What the upstream answered, before any strict-mode replacement. */
  answer: Answered
}

const decoder = new TextDecoder()
const strictDecoder = new TextDecoder('utf-8', { fatal: true })

/** Bytes in base64, the upstream key redacted in them first (it may sit among bytes that are not text). */
const base64 = (bytes: Uint8Array, key: string | undefined): string => {
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(redactKnownSecretInBinary(binary, key))
}

/** The body as HAR text: UTF-8 text as it is, other bytes in base64 (the upstream key redacted in both). */
const content = (
  answer: Answered,
  key: string | undefined,
): { text: string; encoding?: 'base64' } => {
  if (answer.text !== undefined) return { text: redactKnownSecret(answer.text, key) }
  try {
    return { text: redactKnownSecret(strictDecoder.decode(answer.body), key) }
  } catch {
    return { text: base64(answer.body, key), encoding: 'base64' }
  }
}

const toRecordedEntry = (
  { entry, sent, answer }: RecordInput,
  key: string | undefined,
): HarEntry => {
  const [skeleton] = toHAR([entry]).log.entries as [HarEntry]
  const { text, encoding } = content(answer, key)
  // A decoded body no longer has the length or encoding the headers gave it.
  const decoded = answer.text !== undefined
  const headers = answer.headers
    .filter(([name]) => {
      const lower = name.toLowerCase()
      return !(decoded && (lower === 'content-encoding' || lower === 'content-length'))
    })
    .map(([name, value]) => ({ name, value: redactKnownSecret(redactHeader(name, value), key) }))
  const mimeType =
    answer.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? 'x-unknown'
  const requestText = sent.body === null ? null : redactKnownSecret(decoder.decode(sent.body), key)
  const url = redactKnownSecret(redactUrl(sent.url), key)
  const requestHeaders = Object.entries(redactHeaders(sent.headers)).map(([name, value]) => ({
    name,
    value: redactKnownSecret(value, key),
  }))
  return {
    ...skeleton,
    request: {
      method: sent.method,
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: requestHeaders,
      queryString: [...new URL(url).searchParams].map(([name, value]) => ({ name, value })),
      ...(requestText === null
        ? {}
        : {
            postData: {
              mimeType: sent.headers['content-type'] ?? 'application/octet-stream',
              text: requestText,
            },
          }),
      headersSize: -1,
      bodySize: sent.body?.byteLength ?? 0,
    },
    response: {
      status: answer.status,
      statusText: statusTextOf(answer.status),
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers,
      content: {
        size: answer.body.byteLength,
        mimeType,
        text,
        ...(encoding === undefined ? {} : { encoding }),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: answer.body.byteLength,
    },
  }
}

/**
 * The recording of upstream mode (`record`): every forwarded request and the
 * upstream's answer as HAR 1.2, full bodies (bounded by the upstream body
 * limit), secrets redacted as the journal redacts them (contract §14), the
 * upstream key wherever it appears. Repeated identical requests stay separate
 * entries, in order (contract §17). With an appender (a file) each entry goes
 * to it and none is kept; else entries are kept, and a sink gets the whole
 * recording after each answer.
 *
 * @example
 * const recording = createRecording({ sink: undefined, appender }, undefined, console.error)
 */
export const createRecording = (
  target: { sink: RecordSink | undefined; appender: RecordAppender | undefined },
  key: string | undefined,
  onError: (error: unknown) => void,
): Recording => {
  const { sink, appender } = target
  const entries: HarEntry[] = []
  const har = toHAR([])
  har.log.entries = entries
  let pending: Promise<unknown> = Promise.resolve()
  let count = 0
  const track = (written: void | Promise<void>): void | Promise<void> => {
    if (written === undefined) return
    // A target that fails (a full disk) is reported, and the next answer tries again.
    const settled = written.catch(onError)
    pending = settled
    return settled
  }
  return {
    add(input) {
      const entry = toRecordedEntry(input, key)
      count++
      try {
        if (appender !== undefined) return track(appender.append(entry))
        entries.push(entry)
        if (sink !== undefined) track(sink(har))
      } catch (error) {
        onError(error)
      }
    },
    toHAR: () => ({ log: { ...har.log, entries: [...entries] } }),
    get count() {
      return count
    },
    async flush() {
      await pending
    },
  }
}
