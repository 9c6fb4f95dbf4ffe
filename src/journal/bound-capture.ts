import { JOURNAL_LIMITS, type JournalCapture, type JournalRecord } from './journal-entry.js'

/** What a record costs besides its strings (its own fields, links and the body's object). */
const RECORD_OVERHEAD = 320
/** Per header line: the pair's slot in its object. */
const HEADER_OVERHEAD = 32

/** Marks what the journal cut from a value. */
const cutMarker = (dropped: number): string => `…(cut ${dropped} characters)`
const DROPPED_NAME = 'x-sandbox-journal-dropped'

const encoder = new TextEncoder()
const decoder = new TextDecoder('utf-8')

/** A copy of a string's start that does not keep the whole string alive (V8 slices share their parent). */
const detachedStart = (text: string, chars: number): string =>
  decoder.decode(encoder.encode(text.slice(0, chars)))

type HeaderRecord = Readonly<Record<string, string | undefined>>

/** The bytes a header record holds, or -1 when it breaks a limit (then `boundHeaders` copies it). */
const measureHeaders = (headers: HeaderRecord): number => {
  let size = 0
  let lines = 0
  for (const name in headers) {
    const value = headers[name]
    if (value === undefined) continue
    if (value.length > JOURNAL_LIMITS.headerValueChars || ++lines > JOURNAL_LIMITS.headers)
      return -1
    size += name.length + value.length + HEADER_OVERHEAD
  }
  return size
}

/** A copy within the limits: long values cut with a marker, lines past the cap counted in one more. */
const boundHeaders = (headers: HeaderRecord): Record<string, string> => {
  const out: Record<string, string> = Object.create(null)
  let lines = 0
  let dropped = 0
  for (const name in headers) {
    const value = headers[name]
    if (value === undefined) continue
    if (++lines > JOURNAL_LIMITS.headers - 1) {
      dropped++
      continue
    }
    out[name] =
      value.length > JOURNAL_LIMITS.headerValueChars
        ? `${detachedStart(value, JOURNAL_LIMITS.headerValueChars)}${cutMarker(value.length - JOURNAL_LIMITS.headerValueChars)}`
        : value
  }
  if (dropped > 0) out[DROPPED_NAME] = `${dropped} more header lines were not kept`
  return out
}

const sizeOf = (headers: Record<string, string | undefined>): number => {
  let size = 0
  for (const name in headers) size += name.length + (headers[name]?.length ?? 0) + HEADER_OVERHEAD
  return size
}

/**
 * Turns a capture into a bounded record, in place: header records within
 * `JOURNAL_LIMITS` are kept as they are (no copy), others copied with long
 * values cut; the request body is copied (a node:http body is a view of a
 * larger socket buffer, which must not stay alive) and capped; a long answer
 * body is cut. `bytes` is what the record holds, approximately.
 *
 * @example
 * const record = boundCapture(capture)
 */
export const boundCapture = (capture: JournalCapture): JournalRecord => {
  const record = capture as JournalRecord
  let bytes = RECORD_OVERHEAD + capture.url.length

  let size = measureHeaders(capture.requestHeaders)
  if (size < 0) {
    record.requestHeaders = boundHeaders(capture.requestHeaders)
    size = sizeOf(record.requestHeaders)
  }
  bytes += size

  const body = capture.requestBody
  const maxBodyBytes = JOURNAL_LIMITS.bodyChars * 4
  record.requestBodyCut = body !== null && body.byteLength > maxBodyBytes
  if (body !== null) {
    record.requestBody = body.slice(0, maxBodyBytes)
    bytes += record.requestBody.byteLength
  }

  if (capture.responseHeaders !== null) {
    size = measureHeaders(capture.responseHeaders)
    if (size < 0) {
      const bounded = boundHeaders(capture.responseHeaders)
      record.responseHeaders = bounded
      size = sizeOf(bounded)
    }
    bytes += size
  }

  const answer = capture.responseBody
  record.responseBodyCut = answer !== null && answer.length > JOURNAL_LIMITS.bodyChars
  if (answer !== null) {
    if (record.responseBodyCut)
      record.responseBody = detachedStart(answer, JOURNAL_LIMITS.bodyChars)
    bytes += Math.min(answer.length, JOURNAL_LIMITS.bodyChars)
  }

  record.aborted = false
  record.bytes = bytes
  record.older = undefined
  record.newer = undefined
  record.owner = undefined
  return record
}
