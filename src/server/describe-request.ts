import type { IncomingMessage, ServerResponse } from 'node:http'
import { UNDELIVERED_FAULTS } from '../faults/shape-fault.js'
import type { JournalRecord } from '../journal/journal.js'
import { redactUrl } from '../journal/redact-secrets.js'
import type { RequestLogEntry } from './format-log-line.js'

/**
 * The log entry of a finished request: method, path, status, time, and for
 * API requests what the journal recorded (the scenario that answered, the
 * caller's plan, the session). The log never recomputes what the journal knows.
 *
 * @example
 * res.once('close', () => log(describeRequest({ req, res, entry, ms })))
 */
export const describeRequest = (input: {
  req: IncomingMessage
  res: ServerResponse
  /** The journal's record, for a request the API answered. */
  entry: JournalRecord | undefined
  ms: number
}): RequestLogEntry => {
  const { req, res, entry } = input
  // `dropped`: no whole answer reached the client. A fault that sends one (`proxy-error`'s 502,
  // `malformed-json`, a `slow-body` read to its end) shows its status, as delivered.
  const status =
    (entry?.fault !== undefined && UNDELIVERED_FAULTS.has(entry.fault)) || !res.writableFinished
      ? 'dropped'
      : (entry?.status ?? res.statusCode)
  return {
    method: req.method ?? '?',
    path: redactUrl(req.url ?? '/'),
    status,
    ms: input.ms,
    scenario: entry?.scenario ?? '-',
    // A key the sandbox does not know (passed on to an upstream, or refused) is not "no key".
    plan:
      entry === undefined
        ? '-'
        : (entry.plan ?? (entry.token === undefined ? 'no-key' : 'unknown-key')),
    session: entry?.session ?? '-',
    ...(entry === undefined || entry.source === 'sandbox'
      ? {}
      : {
          source: entry.source,
          violations: entry.violations.map((violation) => violation.rule),
        }),
  }
}
