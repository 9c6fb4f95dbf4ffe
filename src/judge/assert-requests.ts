// Loaded on demand (a dynamic import) by the controls' `requests.find` and `requests.expect`:
// the matching, its checks and the diff load only when a test asserts (decision 0032).
import type { JournalEntry } from '../journal/journal.js'
import { compareEntry, findRequests } from './compare-entry.js'
import { describeExpectation } from './describe-expectation.js'
import type { JudgeTools } from './judge-tools.js'
import { RequestExpectationError } from './request-expectation-error.js'
import { checkRequestMatch, checkTimes, type ExpectOptions } from './request-match.js'

/**
 * `requests.find`: the entries that match, after checking the match.
 *
 * @example
 * findInJournal(entries, { method: 'POST' }, JUDGE_TOOLS)
 */
export const findInJournal = (
  entries: readonly JournalEntry[],
  match: unknown,
  tools: JudgeTools,
): JournalEntry[] => findRequests(entries, checkRequestMatch(match, tools), tools)

/**
 * `requests.expect`: the matching entries when there are `times` of them
 * (default: at least one); a `RequestExpectationError` with the nearest
 * misses as a diff otherwise.
 *
 * @example
 * expectInJournal({ entries, match: { method: 'POST' }, options: { times: 1 }, session: 'default', tools })
 */
export const expectInJournal = (input: {
  entries: readonly JournalEntry[]
  match: unknown
  options: ExpectOptions | undefined
  session: string
  tools: JudgeTools
}): JournalEntry[] => {
  const { entries, session, tools } = input
  const match = checkRequestMatch(input.match, tools)
  const times = checkTimes(input.options)
  const matched = findRequests(entries, match, tools)
  if (times === undefined ? matched.length > 0 : matched.length === times) return matched
  const compared = entries.map((entry) => ({
    entry,
    differences: compareEntry(match, entry, tools),
  }))
  throw new RequestExpectationError(describeExpectation({ compared, match, times, session }))
}
