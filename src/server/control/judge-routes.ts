import { ApiError } from '../../http/api-error.js'
import { jsonResponse } from '../../http/json-response.js'
import type { SandboxResponse } from '../../http/types.js'
import { findRequests } from '../../judge/compare-entry.js'
import { describeExpectation } from '../../judge/describe-expectation.js'
import { measureCoverage } from '../../judge/measure-coverage.js'
import { reportClient } from '../../judge/report-client.js'
import type { SessionState } from '../../state/sandbox-state.js'
import { type ExpectBody, readRequestFilters, toRequestMatch } from './read-request-filters.js'

// RegExps in a match or a difference travel as their source text, `/^\/v1\/pets$/`.
const toJson = (value: unknown): unknown =>
  JSON.parse(
    JSON.stringify(value ?? null, (_key, inner: unknown) =>
      inner instanceof RegExp ? String(inner) : inner,
    ),
  )

/**
 * `GET /__sandbox/requests`: the session's journal, filtered when the query
 * names filters (`method`, `path`, `status`, `query.NAME`, `header.NAME`, `body`…).
 *
 * @example
 * await listRequests(session, url) // 200 [entries]
 */
export const listRequests = async (session: SessionState, url: URL): Promise<SandboxResponse> => {
  const entries = await session.listJournal()
  const filtered =
    url.search === '' ? entries : findRequests(entries, readRequestFilters(url.searchParams))
  return jsonResponse(200, filtered)
}

/**
 * `POST /__sandbox/requests/expect`: 200 `{ matched, seqs }` when the journal
 * holds `times` matching requests (default: at least one), else 409
 * `expectation_not_met` with the nearest misses as data and as the message.
 *
 * @example
 * await expectRequests(session, { method: 'POST', path: '/v1/pets', times: 1 })
 */
export const expectRequests = async (
  session: SessionState,
  input: ExpectBody,
): Promise<SandboxResponse> => {
  const { times, ...rest } = input
  const match = toRequestMatch(rest, 'validation_failed')
  const entries = await session.listJournal()
  const matched = findRequests(entries, match)
  if (times === undefined ? matched.length > 0 : matched.length === times)
    return jsonResponse(200, { matched: matched.length, seqs: matched.map((e) => e.seq) })
  const failure = describeExpectation({ entries, match, times, session: session.id })
  return jsonResponse(409, {
    ...new ApiError('expectation_not_met', failure.message).toBody(),
    session: failure.session,
    total: failure.total,
    ...(times === undefined ? {} : { times }),
    matched: failure.matched,
    misses: failure.misses.map((miss) => ({
      ...miss,
      differences: miss.differences.map((d) => ({
        field: d.field,
        expected: toJson(d.expected),
        received: toJson(d.received),
      })),
    })),
  })
}

/** `GET /__sandbox/report`: the client-behaviour report of the session (contract §18). */
export const reportRequests = async (session: SessionState): Promise<SandboxResponse> =>
  jsonResponse(200, reportClient(await session.listJournal(), { session: session.id }))

/** `GET /__sandbox/coverage`: what the client met of the contract in the session. */
export const coverRequests = async (session: SessionState): Promise<SandboxResponse> =>
  jsonResponse(200, measureCoverage(await session.listJournal(), { session: session.id }))
