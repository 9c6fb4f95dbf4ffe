import type { JournalEntry } from '../journal/journal.js'
import { redactHeader, redactHeaders, redactUrl } from '../journal/redact-secrets.js'
import { type Har, type HarEntry, statusTextOf, toHAR } from '../journal/to-har.js'
import type { Answered, OutgoingRequest } from './call-upstream.js'
import type { RecordSink } from './upstream-options.js'

/** The forwarded traffic kept as HAR 1.2, in the order it was answered. */
export interface Recording {
  /** Records one forwarded request and the upstream's answer (full bodies, secrets redacted). */
  add(input: RecordInput): void
  /** The recording so far. */
  toHAR(): Har
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

const base64 = (bytes: Uint8Array): string => {
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}

/** The body as HAR text: UTF-8 text as it is, other bytes in base64. */
const content = (answer: Answered): { text: string; encoding?: 'base64' } => {
  if (answer.text !== undefined) return { text: answer.text }
  try {
    return { text: strictDecoder.decode(answer.body) }
  } catch {
    return { text: base64(answer.body), encoding: 'base64' }
  }
}

const toRecordedEntry = ({ entry, sent, answer }: RecordInput): HarEntry => {
  const [skeleton] = toHAR([entry]).log.entries as [HarEntry]
  const { text, encoding } = content(answer)
  // A decoded body no longer has the length or encoding the headers gave it.
  const decoded = answer.text !== undefined
  const headers = answer.headers
    .filter(([name]) => {
      const lower = name.toLowerCase()
      return !(decoded && (lower === 'content-encoding' || lower === 'content-length'))
    })
    .map(([name, value]) => ({ name, value: redactHeader(name, value) }))
  const mimeType =
    answer.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? 'x-unknown'
  const requestText = sent.body === null ? null : decoder.decode(sent.body)
  const url = redactUrl(sent.url)
  const requestHeaders = Object.entries(redactHeaders(sent.headers)).map(([name, value]) => ({
    name,
    value,
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
 * upstream's answer as HAR 1.2, full bodies, secrets redacted as the journal
 * redacts them (contract §14). Repeated identical requests stay separate
 * entries, in order (contract §17). The sink, when given, gets the whole
 * recording after each answer.
 *
 * @example
 * const recording = createRecording((har) => writer.write(JSON.stringify(har)), console.error)
 */
export const createRecording = (
  sink: RecordSink | undefined,
  onError: (error: unknown) => void,
): Recording => {
  const entries: HarEntry[] = []
  const har = toHAR([])
  har.log.entries = entries
  let pending: Promise<unknown> = Promise.resolve()
  return {
    add(input) {
      entries.push(toRecordedEntry(input))
      if (sink === undefined) return
      let written: void | Promise<void>
      try {
        written = sink(har)
      } catch (error) {
        onError(error)
        return
      }
      // A sink that fails (a full disk) is reported, and the next answer tries again.
      if (written !== undefined) pending = written.catch(onError)
    },
    toHAR: () => ({ log: { ...har.log, entries: [...entries] } }),
    async flush() {
      await pending
    },
  }
}
