import type { Finding } from '../finding.js'
import { count, type JudgedRequest } from '../judged-request.js'
import type { Rule } from './rule.js'

/** The spec's removal date of getPet, for a call whose answer carried no `Sunset` (a failed connection). */
const SPEC_SUNSET_AT = Date.UTC(2030, 11, 5)

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]

const day = (ms: number): string => {
  const date = new Date(ms)
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`
}

const removed = (request: JudgedRequest): boolean =>
  request.at >= (request.sunsetAt ?? SPEC_SUNSET_AT) ||
  (request.status === 410 && request.code === 'operation_removed')

/**
 * `deprecated-operation`: calls to getPet. A warning for the calls before its
 * removal date (the answer's `Sunset`, by the sandbox clock), an error for
 * those from it on or answered 410 `operation_removed`: one finding each.
 *
 * @example
 * deprecatedOperation(requests) // [{ rule: 'deprecated-operation', level: 'warning', … }]
 */
export const deprecatedOperation: Rule = (requests) => {
  const calls = requests.filter((r) => r.operation === 'getPet')
  const before = calls.filter((r) => !removed(r))
  const after = calls.filter(removed)
  const findings: Finding[] = []
  const sunset = (list: readonly JudgedRequest[]): string =>
    day(list.find((r) => r.sunsetAt !== null)?.sunsetAt ?? SPEC_SUNSET_AT)
  if (before.length > 0)
    findings.push({
      rule: 'deprecated-operation',
      level: 'warning',
      message: `${count(before.length, 'call')} to getPet (GET /v1/pets/{petId}), which is deprecated and removed on ${sunset(before)}. Use GET /v1/pets with its status filter instead.`,
      seqs: before.map((r) => r.seq),
    })
  if (after.length > 0)
    findings.push({
      rule: 'deprecated-operation',
      level: 'error',
      message: `${count(after.length, 'call')} to getPet (GET /v1/pets/{petId}) after its removal on ${sunset(after)}: it answers 410 operation_removed. Use GET /v1/pets with its status filter instead.`,
      seqs: after.map((r) => r.seq),
    })
  return findings
}
