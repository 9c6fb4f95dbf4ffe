import { UNDELIVERED_FAULTS } from '../faults/shape-fault.js'
import { JOURNAL_LIMITS, type JournalEntry, type JournalRecord } from './journal-entry.js'
import { callerOf, keyRef } from './key-ref.js'
import { redactHeaders, redactUrl } from './redact-secrets.js'

const decoder = new TextDecoder('utf-8')

const requestBody = (
  record: JournalRecord,
): Pick<JournalEntry['request'], 'body' | 'bodyTruncated'> => {
  if (record.requestBody === null) return { body: null, bodyTruncated: false }
  const text = decoder.decode(record.requestBody)
  const truncated = record.requestBodyCut || text.length > JOURNAL_LIMITS.bodyChars
  return {
    body: text.length > JOURNAL_LIMITS.bodyChars ? text.slice(0, JOURNAL_LIMITS.bodyChars) : text,
    bodyTruncated: truncated,
  }
}

/** The `code` of an Error body, read back from the answer's text. */
const errorCode = (record: JournalRecord): string | null => {
  const body = record.responseBody
  if (record.status === null || record.status < 400 || body === null || body[0] !== '{') return null
  try {
    const parsed: unknown = JSON.parse(body)
    if (typeof parsed === 'object' && parsed !== null && 'code' in parsed) {
      const code = (parsed as { code: unknown }).code
      return typeof code === 'string' ? code : null
    }
  } catch {
    // A cut or non-JSON body has no code to read.
  }
  return null
}

/**
 * The entry a reader sees of a record: secrets redacted (contract §14), names
 * lower-cased, bodies decoded and capped. This is where the journal's cost
 * is paid, once per read, never on the request's path.
 *
 * @example
 * const entries = journal.records().map(toJournalEntry)
 */
export const toJournalEntry = (record: JournalRecord): JournalEntry => {
  const failed = record.status === null || record.responseHeaders === null
  return {
    seq: record.seq,
    ...(record.requestId === undefined ? {} : { requestId: record.requestId }),
    time: new Date(record.at).toISOString(),
    session: record.session,
    ...(record.instance === undefined ? {} : { instance: record.instance }),
    method: record.method,
    url: redactUrl(record.url),
    operation: record.operation,
    caller: callerOf(record),
    keyRef: record.token === undefined ? null : keyRef(record.token),
    status: failed ? null : record.status,
    code: failed ? null : errorCode(record),
    fault: record.fault,
    scenario: record.scenario,
    ...(record.phase === undefined
      ? {}
      : {
          phase: {
            timeline: record.phase.timeline,
            index: record.phase.index,
            scenario: record.phase.scenario,
          },
        }),
    plan: record.plan,
    source: record.source,
    violations: record.violations,
    aborted: record.aborted,
    // An answer made that reached the client whole (decision 0040).
    delivered:
      !failed &&
      !record.aborted &&
      (record.fault === undefined || !UNDELIVERED_FAULTS.has(record.fault)),
    durationMs: record.durationMs,
    delayMs: record.delayMs,
    request: { headers: redactHeaders(record.requestHeaders), ...requestBody(record) },
    response: failed
      ? null
      : {
          headers: redactHeaders(record.responseHeaders ?? {}),
          body: record.responseBody,
          bodyTruncated: record.responseBodyCut,
          ...(record.responseBodyEncoding === undefined
            ? {}
            : { encoding: record.responseBodyEncoding }),
        },
  }
}
