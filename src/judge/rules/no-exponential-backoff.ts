import type { Finding } from '../finding.js'
import {
  byCaller,
  describeCaller,
  isBackOffAnswer,
  isBanAnswer,
  type JudgedRequest,
  seconds,
} from '../judged-request.js'
import type { Rule } from './rule.js'

/** The fewest retries in a run that the rule judges (contract §18). */
const MIN_RETRIES = 3
/** The fewest waits of the client's own choosing it takes to judge a run. */
const MIN_OWN_WAITS = 3
/**
 * A wait grew when it is at least this many times a shorter wait before it.
 * Above 1.5 (the widest spread of a constant wait with ±20% jitter), low enough
 * that full and decorrelated jitter grow somewhere (decision 0047's table).
 */
const GROWTH = 1.6
/** …and at least this much longer: millisecond noise around zero is not growth. */
const MIN_GROWTH_MS = 20
/** A client that waited what Retry-After said, give or take this, kept the server's pace. */
const AT_RETRY_AFTER_MS = 1_000

/** What makes a client retry: 429, 503, a failed connection, or an answer it gave up on. */
const failed = (request: JudgedRequest): boolean =>
  request.status === 429 || request.status === 503 || request.status === null || request.aborted

const describeFailure = (request: JudgedRequest): string => {
  if (request.status === null) return `failed connection (${request.fault ?? 'network-error'})`
  if (request.aborted && request.status !== 429 && request.status !== 503)
    return `${request.status} answer it gave up on`
  return `${request.status}${request.code === null ? '' : ` ${request.code}`}`
}

/** One wait of a run: from the failed answer reaching the client to the next request. */
interface Wait {
  ms: number
  /** False when Retry-After (or a ban) set it: shorter, or within a second longer. */
  own: boolean
}

/**
 * The wait before `retry`, measured from the moment `previous` failed: its answer
 * left (an answer the client gave up on failed earlier still, so the wait is at
 * least this; never below zero).
 */
const waitBefore = (previous: JudgedRequest, retry: JudgedRequest): Wait => {
  const ms = Math.max(0, retry.at - Math.min(previous.answeredAt, retry.at))
  const paced =
    (isBackOffAnswer(previous) || isBanAnswer(previous)) &&
    previous.retryAfterMs !== null &&
    ms < previous.retryAfterMs + AT_RETRY_AFTER_MS
  return { ms, own: !paced }
}

/**
 * True when no wait of the client's own choosing grew: none is at least
 * GROWTH times (and MIN_GROWTH_MS more than) the shortest own wait before it.
 * The trend over the whole run, not neighbouring pairs, so jitter that makes
 * one wait shorter than the last does not count against a growing run.
 */
const neverGrows = (waits: readonly number[]): boolean => {
  let shortest = waits[0] as number
  for (const wait of waits.slice(1)) {
    if (wait >= GROWTH * shortest && wait - shortest >= MIN_GROWTH_MS) return false
    shortest = Math.min(shortest, wait)
  }
  return true
}

/**
 * `no-exponential-backoff` (error): a run of at least three consecutive
 * retries by one caller after 429, 503 or a failed connection whose waits do
 * not grow (contract §18 as amended 2026-11-27). A wait runs from the moment
 * the failed answer reached the client to the next request. Waits set by
 * `Retry-After` (shorter, the other rule's; or within a second longer, the
 * server's pace) are not judged; with fewer than three waits of the client's
 * own choosing the run is not judged. The run is flagged when no own wait is
 * at least 1.6 times (and 20 ms more than) the shortest own wait before it:
 * the measured flag rates by kind of back-off are in decision 0047.
 *
 * @example
 * noExponentialBackoff(requests) // [{ rule: 'no-exponential-backoff', level: 'error', … }]
 */
export const noExponentialBackoff: Rule = (requests) => {
  const findings: Finding[] = []
  for (const calls of byCaller(requests)) {
    let run: JudgedRequest[] = []
    const evaluate = (): void => {
      const waits = run.slice(1).map((retry, i) => waitBefore(run[i] as JudgedRequest, retry))
      const own = waits.filter((w) => w.own).map((w) => w.ms)
      if (waits.length >= MIN_RETRIES && own.length >= MIN_OWN_WAITS && neverGrows(own)) {
        const first = run[0] as JudgedRequest
        const shown = waits.map((w) => (w.own ? seconds(w.ms) : `${seconds(w.ms)} (Retry-After)`))
        findings.push({
          rule: 'no-exponential-backoff',
          level: 'error',
          message: `${describeCaller(first.caller)} retried ${waits.length} times after the ${describeFailure(first)} at #${first.seq}, with waits of ${shown.join(', ')} (each from the failed answer to the next request). None grew to ${GROWTH} times a shorter one before it: back off exponentially (jitter is fine; never wait less than Retry-After).`,
          seqs: run.map((r) => r.seq),
        })
      }
      run = []
    }
    for (const request of calls) {
      if (run.length > 0) {
        run.push(request)
        if (!failed(request)) evaluate()
      } else if (failed(request)) run = [request]
    }
    evaluate()
  }
  return findings
}
