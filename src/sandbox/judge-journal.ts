import type { JournalEntry } from '../journal/journal.js'
import { compareEntry, findRequests } from '../judge/compare-entry.js'
import type { ClientReport } from '../judge/finding.js'
import type { CoverageReport } from '../judge/measure-coverage.js'
import { RequestExpectationError } from '../judge/request-expectation-error.js'
import {
  checkRequestMatch,
  checkTimes,
  type ExpectOptions,
  type RequestMatch,
} from '../judge/request-match.js'
import { OPERATIONS } from '../operations/routes.js'
import type { Awaitable } from '../state/sandbox-state.js'

/** A session's journal, read when asked (memory now, a shared store later). */
type ReadJournal = () => Awaitable<JournalEntry[]>

/** What the controls of a session offer to judge its client (issue 23). */
export interface JournalJudge {
  expect(match: RequestMatch, options?: ExpectOptions): Promise<JournalEntry[]>
  report(): Promise<ClientReport>
  coverage(): Promise<CoverageReport>
}

/**
 * The asynchronous judging controls of one session, over its journal as the
 * state seam reads it (so a shared store's journal, written by every
 * instance, is the one judged). The diff, the report's rules and coverage
 * are imported when first asked for: a browser app loads them only then.
 *
 * @example
 * const judge = createJournalJudge('default', () => session.listJournal())
 * await judge.expect({ method: 'POST', path: '/v1/pets' }, { times: 1 })
 */
export const createJournalJudge = (session: string, read: ReadJournal): JournalJudge => ({
  async expect(match, options) {
    const checked = checkRequestMatch(match)
    const times = checkTimes(options)
    const entries = await read()
    const matched = findRequests(entries, checked)
    if (times === undefined ? matched.length > 0 : matched.length === times) return matched
    const { describeExpectation } = await import('../judge/describe-expectation.js')
    const compared = entries.map((entry) => ({ entry, differences: compareEntry(checked, entry) }))
    throw new RequestExpectationError(
      describeExpectation({ compared, match: checked, times, session }),
    )
  },
  async report() {
    const { reportClient } = await import('../judge/report-client.js')
    return reportClient(await read(), { session })
  },
  async coverage() {
    const { measureCoverage } = await import('../judge/measure-coverage.js')
    return measureCoverage(await read(), { session, operations: OPERATIONS })
  },
})

/**
 * `requests.find`: the matching entries of a journal, synchronously.
 *
 * @example
 * findInJournal(session.listJournal(), { status: 429 })
 */
export const findInJournal = (
  entries: readonly JournalEntry[],
  match: RequestMatch | undefined,
): JournalEntry[] => findRequests(entries, checkRequestMatch(match))
