import type { Finding } from '../finding.js'
import {
  byCaller,
  count,
  describeCaller,
  isBackOffAnswer,
  isBanAnswer,
  type JudgedRequest,
  seconds,
} from '../judged-request.js'
import type { Rule } from './rule.js'

const describeAnswer = (request: JudgedRequest): string =>
  `${request.status}${request.code === null ? '' : ` ${request.code}`}`

/**
 * `retry-before-retry-after` (error): requests by a caller before the end of
 * the `Retry-After` of its last 429 or 503. One finding per episode: the
 * answer whose wait was ignored, and every request until one came on time.
 * Requests during a ban are `request-while-banned`'s, not this rule's.
 *
 * @example
 * retryBeforeRetryAfter(requests) // [{ rule: 'retry-before-retry-after', level: 'error', … }]
 */
export const retryBeforeRetryAfter: Rule = (requests) => {
  const findings: Finding[] = []
  for (const calls of byCaller(requests)) {
    let anchor: JudgedRequest | undefined
    let until = Number.NEGATIVE_INFINITY
    let bannedUntil = Number.NEGATIVE_INFINITY
    let episode: { anchor: JudgedRequest; early: JudgedRequest[] } | undefined
    const close = (): void => {
      if (episode === undefined) return
      const { anchor: answer, early } = episode
      const first = early[0] as JudgedRequest
      findings.push({
        rule: 'retry-before-retry-after',
        level: 'error',
        message: `${describeCaller(answer.caller)} sent ${count(early.length, 'request')} before the Retry-After of the ${describeAnswer(answer)} at #${answer.seq} had passed (Retry-After: ${seconds(answer.retryAfterMs ?? 0)}; the first came ${seconds(Math.max(0, first.at - answer.answeredAt))} after the answer). Wait at least Retry-After before sending again.`,
        seqs: [answer.seq, ...early.map((r) => r.seq)],
      })
      episode = undefined
    }
    for (const request of calls) {
      const duringBan = request.at < bannedUntil
      if (!duringBan) {
        if (anchor !== undefined && request.at < until) {
          episode ??= { anchor, early: [] }
          episode.early.push(request)
        } else close()
      }
      if (isBanAnswer(request) && request.retryAfterMs !== null)
        bannedUntil = Math.max(bannedUntil, request.answeredAt + request.retryAfterMs)
      else if (isBackOffAnswer(request)) {
        anchor = request
        until = request.answeredAt + (request.retryAfterMs ?? 0)
      }
    }
    close()
  }
  return findings
}
