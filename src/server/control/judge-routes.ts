import { ApiError } from '../../http/api-error.js'
import { invalidParameter, repeatedParameter } from '../../http/errors.js'
import { jsonResponse } from '../../http/json-response.js'
import type { SandboxResponse } from '../../http/types.js'
import { REQUEST_ID_PATTERN } from '../../journal/request-id.js'
import { compareEntry, findRequests } from '../../judge/compare-entry.js'
import { describeExpectation, showValue } from '../../judge/describe-expectation.js'
import type { JudgeTools } from '../../judge/judge-tools.js'
import { measureCoverage } from '../../judge/measure-coverage.js'
import { reportClient } from '../../judge/report-client.js'
import type { Operation } from '../../operations/operation.js'
import { pactNameProblem } from '../../pact/pact-names.js'
import type { AddedDocument } from '../../pact/pact-on-demand.js'
import { JUDGE_TOOLS } from '../../sandbox/judge-journal.js'
import type { SessionState } from '../../state/sandbox-state.js'
import { type ExpectBody, readRequestFilters, toRequestMatch } from './read-request-filters.js'

/** `requestId=` of `GET /__sandbox/requests`: an answer's `Request-Id` (contract §22), or undefined. */
const readRequestId = (params: URLSearchParams): string | undefined => {
  const values = params.getAll('requestId')
  if (values.length > 1) throw repeatedParameter('requestId')
  const id = values[0]
  if (id !== undefined && !REQUEST_ID_PATTERN.test(id))
    throw invalidParameter(
      'requestId',
      'must be an answer\'s Request-Id: "req_" and 1-64 lower-case letters and digits',
    )
  return id
}

/**
 * `GET /__sandbox/requests`: the session's journal, filtered when the query
 * names filters (`requestId`, `method`, `path`, `status`, `query.NAME`,
 * `header.NAME`, `body`…).
 *
 * @example
 * await listRequests(session, url) // 200 [entries]
 */
export const listRequests = async (
  session: SessionState,
  url: URL,
  tools: JudgeTools = JUDGE_TOOLS,
): Promise<SandboxResponse> => {
  if (url.search === '') return jsonResponse(200, await session.listJournal())
  const params = new URLSearchParams(url.searchParams)
  const requestId = readRequestId(params)
  params.delete('requestId')
  const match = await readRequestFilters(params, tools)
  let entries = await session.listJournal()
  if (requestId !== undefined) entries = entries.filter((entry) => entry.requestId === requestId)
  return jsonResponse(200, findRequests(entries, match, tools))
}

/**
 * `POST /__sandbox/requests/expect`: 200 `{ matched, seqs }` when the journal
 * holds `times` matching requests (default: at least one), else 409
 * `expectation_not_met`: the diff of the nearest misses as the message, the
 * count and each difference as `details`.
 *
 * @example
 * await expectRequests(session, { method: 'POST', path: '/v1/pets', times: 1 })
 */
export const expectRequests = async (
  session: SessionState,
  input: ExpectBody,
  tools: JudgeTools = JUDGE_TOOLS,
): Promise<SandboxResponse> => {
  const { times, ...rest } = input
  const match = await toRequestMatch(rest, 'validation_failed', tools)
  const entries = await session.listJournal()
  const matched = findRequests(entries, match, tools)
  if (times === undefined ? matched.length > 0 : matched.length === times)
    return jsonResponse(200, { matched: matched.length, seqs: matched.map((e) => e.seq) })
  const compared = entries.map((entry) => ({
    entry,
    differences: compareEntry(match, entry, tools),
  }))
  const failure = describeExpectation({ compared, match, times, session: session.id })
  // The contract's Error body, no more (§7): the diff is the message; each difference a detail.
  const count = failure.matched.map((r) => `#${r.seq}`).join(', ')
  throw new ApiError('expectation_not_met', failure.message, {
    details: [
      {
        field: 'times',
        message: `expected ${times ?? 'at least 1'}, received ${failure.matched.length}${count === '' ? '' : ` (${count})`} of ${failure.total}`,
      },
      ...failure.misses.flatMap((miss) =>
        miss.differences.map((difference) => ({
          field: difference.field,
          message: `#${miss.seq} ${miss.method} ${miss.target}: expected ${showValue(difference.expected)}, received ${showValue(difference.received)}`,
        })),
      ),
    ],
  })
}

/** `GET /__sandbox/report`: the client-behaviour report of the session (contract §18). */
export const reportRequests = async (session: SessionState): Promise<SandboxResponse> =>
  jsonResponse(200, reportClient(await session.listJournal(), { session: session.id }))

/** `GET /__sandbox/coverage`: what the client met of the contract in the session. */
export const coverRequests = async (
  session: SessionState,
  operations: readonly Operation[],
): Promise<SandboxResponse> =>
  jsonResponse(
    200,
    measureCoverage(await session.listJournal(), { session: session.id, operations }),
  )

/**
 * `GET /__sandbox/pact?consumer=NAME&provider=NAME`: the session's journal as
 * a Pact v4 file, `{ pact, problems, skipped }` (contract §21); a missing,
 * repeated or bad name is 400 `invalid_parameter` naming it.
 *
 * @example
 * await pactRequests(session, new URL('http://x/__sandbox/pact?consumer=web&provider=pets'))
 */
export const pactRequests = async (
  session: SessionState,
  url: URL,
  /** The `openapi` option's operations: checked against their document too (issue 37). */
  openapi?: Promise<AddedDocument> | undefined,
): Promise<SandboxResponse> => {
  const names: Record<'consumer' | 'provider', string> = { consumer: '', provider: '' }
  for (const name of ['consumer', 'provider'] as const) {
    const given = url.searchParams.getAll(name)
    if (given.length > 1) throw repeatedParameter(name)
    const problem =
      given.length === 0 ? 'is required (the name a Pact broker shows)' : pactNameProblem(given[0])
    if (problem !== undefined) throw invalidParameter(name, problem)
    names[name] = given[0] as string
  }
  const [{ pactOfJournal }, added] = await Promise.all([
    import('../../pact/pact-on-demand.js'),
    openapi?.catch(() => undefined),
  ])
  return jsonResponse(200, pactOfJournal(await session.listJournal(), names, added))
}
