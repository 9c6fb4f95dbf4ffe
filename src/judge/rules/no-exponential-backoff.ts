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
/** A wait within this much past Retry-After kept the server's pace… */
const AT_RETRY_AFTER_MS = 1_000
/**
 * …or within this share of Retry-After past it: Retry-After plus the client's
 * jitter (axios-retry adds up to 20%). A constant wait this close to Retry-After
 * cannot be told from it; one longer is the client's own (decision 0052).
 */
const PAST_RETRY_AFTER = 0.5

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
  /** The failed answer's Retry-After (ms), or null when it said none. */
  retryAfter: number | null
  /**
   * The part the client chose (ms): the whole wait, or the part past
   * Retry-After; null when Retry-After set it (shorter, or the server's pace).
   */
  own: number | null
}

/**
 * The wait before `retry`, measured from the moment `previous` failed: its answer
 * left (an answer the client gave up on failed earlier still, so the wait is at
 * least this; never below zero). After a Retry-After, the client's own part is
 * what it waited past it, once that is more than the server's pace allows.
 */
const waitBefore = (previous: JudgedRequest, retry: JudgedRequest): Wait => {
  const ms = Math.max(0, retry.at - Math.min(previous.answeredAt, retry.at))
  const retryAfter =
    isBackOffAnswer(previous) || isBanAnswer(previous) ? previous.retryAfterMs : null
  if (retryAfter === null) return { ms, retryAfter, own: ms }
  const pace = retryAfter + Math.max(AT_RETRY_AFTER_MS, PAST_RETRY_AFTER * retryAfter)
  return { ms, retryAfter, own: ms < pace ? null : ms - retryAfter }
}

const pastRetryAfter = (wait: Wait): boolean => wait.retryAfter !== null && wait.own !== null

const showWait = ({ ms, retryAfter, own }: Wait): string => {
  if (own === null) return `${seconds(ms)} (Retry-After)`
  if (retryAfter === null) return seconds(ms)
  return `${seconds(ms)} (${seconds(own)} past Retry-After)`
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
 * the failed answer reached the client to the next request, from the last
 * failure the client could have seen: a request sent before any failure of
 * the run had reached it (the same instant, or during a delay) is concurrent,
 * not a retry, and has no wait (as `retry-before-retry-after` reads it). Waits set by
 * `Retry-After` are not judged: shorter is the other rule's; up to a second,
 * or half of Retry-After, longer kept the server's pace. Of a longer wait, the
 * part past `Retry-After` is the client's own and is judged (decision 0052).
 * With fewer than three own waits the run is not judged. The run is flagged
 * when no own wait is at least 1.6 times (and 20 ms more than) the shortest
 * own wait before it: the measured flag rates by kind of back-off are in
 * docs/judging-the-client.md.
 *
 * @example
 * noExponentialBackoff(requests) // [{ rule: 'no-exponential-backoff', level: 'error', … }]
 */
export const noExponentialBackoff: Rule = (requests) => {
  const findings: Finding[] = []
  for (const calls of byCaller(requests)) {
    // The run's requests (failures and retries) and the waits before its retries.
    let run: JudgedRequest[] = []
    let waits: Wait[] = []
    const evaluate = (): void => {
      const own = waits.flatMap((w) => (w.own === null ? [] : [w.own]))
      if (waits.length >= MIN_RETRIES && own.length >= MIN_OWN_WAITS && neverGrows(own)) {
        const first = run[0] as JudgedRequest
        const shown = waits.map(showWait)
        findings.push({
          rule: 'no-exponential-backoff',
          level: 'error',
          message: `${describeCaller(first.caller)} retried ${waits.length} times after the ${describeFailure(first)} at #${first.seq}, with waits of ${shown.join(', ')} (each from the failed answer to the next request). None grew to ${GROWTH} times a shorter one before it${waits.some(pastRetryAfter) ? ' (after a Retry-After, the part past it is judged)' : ''}: back off exponentially (jitter is fine; never wait less than Retry-After).`,
          seqs: run.map((r) => r.seq),
        })
      }
      run = []
      waits = []
    }
    // The run's failures whose answers had not reached the client by the last
    // request, and the last one that had (what a retry waits from).
    let unseen: JudgedRequest[] = []
    let seen: JudgedRequest | undefined
    const see = (at: number): void => {
      const still: JudgedRequest[] = []
      for (const failure of unseen) {
        if (failure.answeredAt >= at) still.push(failure)
        else if (seen === undefined || failure.answeredAt >= seen.answeredAt) seen = failure
      }
      unseen = still
    }
    for (const request of calls) {
      if (run.length > 0) {
        // A request sent before any failure of the run had reached the client
        // (the same instant, or during a delay) is concurrent (contract §18):
        // a first attempt, not a retry, so it has no wait.
        see(request.at)
        if (seen === undefined) {
          if (failed(request)) {
            run.push(request)
            unseen.push(request)
          }
          continue
        }
        run.push(request)
        waits.push(waitBefore(seen, request))
        if (!failed(request)) {
          evaluate()
          unseen = []
          seen = undefined
        } else unseen.push(request)
      } else if (failed(request)) {
        run = [request]
        unseen = [request]
        seen = undefined
      }
    }
    evaluate()
  }
  return findings
}
