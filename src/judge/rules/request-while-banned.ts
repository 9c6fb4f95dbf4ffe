import type { Finding } from '../finding.js'
import {
  byCaller,
  count,
  describeCaller,
  isBanAnswer,
  type JudgedRequest,
  seconds,
} from '../judged-request.js'
import type { Rule } from './rule.js'

/**
 * `request-while-banned` (error): requests by a caller during its ban, which
 * a 429 `api_key_banned` announces with `Retry-After` until its end. One
 * finding per ban: the answer that announced it, and every request during it.
 * A ban counts from the instant its answer reached the client (`answeredAt`):
 * a request sent until then could not have known of it (contract §18, as for
 * concurrent first attempts).
 *
 * @example
 * requestWhileBanned(requests) // [{ rule: 'request-while-banned', level: 'error', … }]
 */
export const requestWhileBanned: Rule = (requests) => {
  const findings: Finding[] = []
  for (const calls of byCaller(requests)) {
    let ban: JudgedRequest | undefined
    let until = Number.NEGATIVE_INFINITY
    let during: JudgedRequest[] = []
    const close = (): void => {
      if (ban !== undefined && during.length > 0)
        findings.push({
          rule: 'request-while-banned',
          level: 'error',
          message: `${describeCaller(ban.caller)} sent ${count(during.length, 'request')} while it was banned (the 429 api_key_banned at #${ban.seq} said to wait ${seconds(ban.retryAfterMs ?? 0)}). A banned client must stop until the ban ends; a ban comes from sending on after 429s.`,
          seqs: [ban.seq, ...during.map((r) => r.seq)],
        })
      during = []
    }
    // Ban answers not yet seen by the client, the earliest to arrive first.
    const unseen: JudgedRequest[] = []
    const see = (at: number): void => {
      unseen.sort((a, b) => a.answeredAt - b.answeredAt || a.seq - b.seq)
      while (unseen.length > 0 && (unseen[0] as JudgedRequest).answeredAt < at) {
        const seen = unseen.shift() as JudgedRequest
        if (seen.answeredAt >= until) {
          close()
          ban = seen
        }
        until = Math.max(until, seen.answeredAt + (seen.retryAfterMs ?? 0))
      }
    }
    for (const request of calls) {
      see(request.at)
      if (request.at < until) during.push(request)
      if (isBanAnswer(request) && request.retryAfterMs !== null) unseen.push(request)
    }
    close()
  }
  return findings
}
