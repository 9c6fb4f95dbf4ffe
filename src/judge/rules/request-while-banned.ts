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
    for (const request of calls) {
      const banned = request.at < until
      if (banned) during.push(request)
      if (isBanAnswer(request) && request.retryAfterMs !== null) {
        if (!banned) {
          close()
          ban = request
        }
        until = Math.max(until, request.answeredAt + request.retryAfterMs)
      }
    }
    close()
  }
  return findings
}
