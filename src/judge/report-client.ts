import type { JournalEntry } from '../journal/journal.js'
import type { ClientReport, Finding, RuleId } from './finding.js'
import { type JudgedRequest, toJudgedRequest } from './judged-request.js'
import { deprecatedOperation } from './rules/deprecated-operation.js'
import { duplicateCreateAfterFailure } from './rules/duplicate-create-after-failure.js'
import { keyInQuery } from './rules/key-in-query.js'
import { noExponentialBackoff } from './rules/no-exponential-backoff.js'
import { repeatedInvalidKey } from './rules/repeated-invalid-key.js'
import { requestWhileBanned } from './rules/request-while-banned.js'
import { retryBeforeRetryAfter } from './rules/retry-before-retry-after.js'
import type { Rule } from './rules/rule.js'

/**
 * The rules of contract §18, in the order a report lists them on a tie. Here,
 * in the module loaded on demand, not beside the types: a value the code that
 * loads at start also used would split it (decision 0032).
 */
export const RULE_IDS: readonly RuleId[] = [
  'retry-before-retry-after',
  'no-exponential-backoff',
  'request-while-banned',
  'deprecated-operation',
  'key-in-query',
  'duplicate-create-after-failure',
  'repeated-invalid-key',
]

const RULES: Readonly<Record<RuleId, Rule>> = {
  'retry-before-retry-after': retryBeforeRetryAfter,
  'no-exponential-backoff': noExponentialBackoff,
  'request-while-banned': requestWhileBanned,
  'deprecated-operation': deprecatedOperation,
  'key-in-query': keyInQuery,
  'duplicate-create-after-failure': duplicateCreateAfterFailure,
  'repeated-invalid-key': repeatedInvalidKey,
}

const first = (finding: Finding): number => finding.seqs[0] ?? 0
const last = (finding: Finding): number => finding.seqs[finding.seqs.length - 1] ?? 0

/**
 * Judges a client by one session's journal (contract §18): every rule over
 * the requests in journal order, findings in journal order (by their first
 * `seq`, then their last, then the rules' order). The same function judges
 * a live session and a HAR, so both give the same report. It reads only the
 * entries: an answer is never changed by it.
 *
 * @example
 * reportClient(sandbox.journal.list(), { session: 'default' })
 * // { session: 'default', requests: 12, findings: [{ rule: 'deprecated-operation', … }] }
 */
export const reportClient = (
  entries: readonly JournalEntry[],
  options: { session: string },
): ClientReport => judgeRequests(entries.map(toJudgedRequest), options)

/**
 * {@link reportClient} over requests already read ({@link toJudgedRequest}),
 * such as the compact ones `report --from` keeps of a long HAR. Sorts
 * `requests` by `seq` in place.
 *
 * @example
 * judgeRequests(entries.map(toJudgedRequest), { session: 'default' })
 */
export const judgeRequests = (
  requests: JudgedRequest[],
  options: { session: string },
): ClientReport => {
  requests.sort((a, b) => a.seq - b.seq)
  const findings = RULE_IDS.flatMap((id) =>
    RULES[id](requests).map((finding) => ({
      ...finding,
      seqs: [...finding.seqs].sort((a, b) => a - b),
    })),
  ).sort(
    (a, b) =>
      first(a) - first(b) ||
      last(a) - last(b) ||
      RULE_IDS.indexOf(a.rule) - RULE_IDS.indexOf(b.rule),
  )
  return { session: options.session, requests: requests.length, findings }
}
