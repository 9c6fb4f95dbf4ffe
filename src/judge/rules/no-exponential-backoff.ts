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

/** The fewest retries in a run that the rule judges. */
const MIN_RETRIES = 3
/** Each gap must be at least this many times the one before. */
const GROWTH = 1.5

/** What makes a client retry: 429, 503, a failed connection, or an answer it gave up on. */
const failed = (request: JudgedRequest): boolean =>
  request.status === 429 || request.status === 503 || request.status === null || request.aborted

const describeFailure = (request: JudgedRequest): string => {
  if (request.status === null) return `failed connection (${request.fault ?? 'network-error'})`
  if (request.aborted && request.status !== 429 && request.status !== 503)
    return `${request.status} answer it gave up on`
  return `${request.status}${request.code === null ? '' : ` ${request.code}`}`
}

/** A client that waited what Retry-After said, give or take this (jitter, rounding), kept the server's pace. */
const AT_RETRY_AFTER_MS = 1_000

/**
 * A gap that is not the client's own choice: a retry before the previous
 * answer's Retry-After (or during a ban) is the other rules' finding, and one
 * that waited just what Retry-After said followed the server (decision 0033).
 */
const notChosen = (previous: JudgedRequest, retry: JudgedRequest): boolean => {
  if (!(isBackOffAnswer(previous) || isBanAnswer(previous)) || previous.retryAfterMs === null)
    return false
  return retry.at < previous.answeredAt + previous.retryAfterMs + AT_RETRY_AFTER_MS
}

/** True when the run's gaps fail to grow somewhere both gaps were the client's own choice. */
const growsTooSlowly = (run: readonly JudgedRequest[]): boolean => {
  for (let i = 2; i < run.length; i++) {
    const before = run[i - 2] as JudgedRequest
    const previous = run[i - 1] as JudgedRequest
    const retry = run[i] as JudgedRequest
    if (notChosen(before, previous) || notChosen(previous, retry)) continue
    const last = previous.at - before.at
    const gap = retry.at - previous.at
    // Equal gaps (zero included) never count as growth.
    if (gap < GROWTH * last || gap <= last) return true
  }
  return false
}

/**
 * `no-exponential-backoff` (error): a run of at least three consecutive
 * retries by one caller after 429, 503 or a failed connection, in which a gap
 * is not at least 1.5 times the one before it. A retry is any request of the
 * caller after a failed one; the run ends with the first that did not fail.
 * Gaps under `Retry-After` (or during a ban) are the other rules' findings;
 * a gap of just the `Retry-After` (within a second) followed the server's pace
 * and is not compared either (decision 0033).
 *
 * @example
 * noExponentialBackoff(requests) // [{ rule: 'no-exponential-backoff', level: 'error', … }]
 */
export const noExponentialBackoff: Rule = (requests) => {
  const findings: Finding[] = []
  for (const calls of byCaller(requests)) {
    let run: JudgedRequest[] = []
    const evaluate = (): void => {
      if (run.length - 1 >= MIN_RETRIES && growsTooSlowly(run)) {
        const first = run[0] as JudgedRequest
        const gaps = run.slice(1).map((r, i) => seconds(r.at - (run[i] as JudgedRequest).at))
        findings.push({
          rule: 'no-exponential-backoff',
          level: 'error',
          message: `${describeCaller(first.caller)} retried ${run.length - 1} times after the ${describeFailure(first)} at #${first.seq}, with gaps of ${gaps.join(', ')}. Back off exponentially: make each wait at least ${GROWTH} times the one before (and never shorter than Retry-After).`,
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
