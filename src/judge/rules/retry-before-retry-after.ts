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
 * the `Retry-After` of the last 429 or 503 it could have seen (contract §18):
 * one that had reached it, by the sandbox clock, before the request was sent.
 * A request that shares that answer's instant, or arrived while it was still
 * being written (during a scenario's delay), is concurrent with it: a first
 * attempt, not a retry (three panels loaded at once, each meeting a 503, are
 * not early retries of one another). One finding per episode: the
 * answers whose wait was ignored, and every request until one came on time.
 * The message names the answer whose deadline the episode's last early
 * request missed (a later 429 that moved the deadline, not the first).
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
    let episode: { anchors: JudgedRequest[]; early: JudgedRequest[] } | undefined
    const close = (): void => {
      if (episode === undefined) return
      const { anchors, early } = episode
      // The answer whose Retry-After the last early request ignored: a later
      // 429 or 503 that moved the deadline, not the first of the run.
      const answer = anchors[anchors.length - 1] as JudgedRequest
      const last = early[early.length - 1] as JudgedRequest
      const firstAnchor = anchors[0] as JudgedRequest
      const earlier =
        answer === firstAnchor
          ? ''
          : ` It had moved the deadline: the first early request, #${(early[0] as JudgedRequest).seq}, ignored the ${describeAnswer(firstAnchor)} at #${firstAnchor.seq} (Retry-After: ${seconds(firstAnchor.retryAfterMs ?? 0)}).`
      findings.push({
        rule: 'retry-before-retry-after',
        level: 'error',
        message: `${describeCaller(answer.caller)} sent ${count(early.length, 'request')} before the Retry-After of the ${describeAnswer(answer)} at #${answer.seq} had passed (Retry-After: ${seconds(answer.retryAfterMs ?? 0)}; ${early.length === 1 ? 'it' : `the last, #${last.seq},`} came ${seconds(Math.max(0, last.at - answer.answeredAt))} after that answer).${earlier} Wait at least Retry-After before sending again.`,
        seqs: [...new Set([...anchors.map((r) => r.seq), ...early.map((r) => r.seq)])],
      })
      episode = undefined
    }
    // Back-off answers the caller could not have seen yet: one reaches the client
    // when it leaves the sandbox (`answeredAt`), and a request sent until that
    // instant is concurrent with it (a first attempt, not a retry of it).
    const unseen: JudgedRequest[] = []
    const see = (at: number): void => {
      unseen.sort((a, b) => a.answeredAt - b.answeredAt || a.seq - b.seq)
      while (unseen.length > 0 && (unseen[0] as JudgedRequest).answeredAt < at) {
        const seen = unseen.shift() as JudgedRequest
        anchor = seen
        until = seen.answeredAt + (seen.retryAfterMs ?? 0)
      }
    }
    // Ban answers too count from the instant they reached the client.
    const unseenBans: JudgedRequest[] = []
    for (const request of calls) {
      see(request.at)
      for (const ban of unseenBans.filter((b) => b.answeredAt < request.at)) {
        bannedUntil = Math.max(bannedUntil, ban.answeredAt + (ban.retryAfterMs ?? 0))
        unseenBans.splice(unseenBans.indexOf(ban), 1)
      }
      const duringBan = request.at < bannedUntil
      if (!duringBan) {
        if (anchor !== undefined && request.at < until) {
          episode ??= { anchors: [], early: [] }
          if (episode.anchors[episode.anchors.length - 1] !== anchor) episode.anchors.push(anchor)
          episode.early.push(request)
        } else close()
      }
      if (isBanAnswer(request) && request.retryAfterMs !== null) unseenBans.push(request)
      else if (isBackOffAnswer(request)) unseen.push(request)
    }
    close()
  }
  return findings
}
