import * as z from 'zod/mini'
import { madeWhenRead } from '../../contract/made-when-read.js'
import { ownRecord } from '../../contract/own-record.js'
import { ApiError } from '../../http/api-error.js'
import { invalidParameter, repeatedParameter, validationFailed } from '../../http/errors.js'
import type { JudgeTools } from '../../judge/judge-tools.js'
import { checkRequestMatch, type RequestMatch } from '../../judge/request-match.js'
import { JUDGE_TOOLS } from '../../sandbox/judge-journal.js'
import { compilePathRegExp, type MatchErrorCode } from './compile-path-regexp.js'

/**
 * The match of `GET /__sandbox/requests` and `POST /__sandbox/requests/expect`
 * as JSON: `requests.expect`'s match, with a RegExp path as `pathRegExp`.
 */
const makeExpectBodySchema = () => {
  const Scalar = z.union([z.string(), z.number(), z.boolean()], {
    error: 'must be a string, a number or a boolean',
  })
  const Status = z.nullable(z.int().check(z.gte(100), z.lte(599)))
  return z.strictObject({
    method: z.optional(
      z.union([z.string(), z.array(z.string())], {
        error: 'must be a method such as "POST", or an array of them',
      }),
    ),
    path: z.optional(z.string()),
    pathRegExp: z.optional(z.string()),
    // ownRecord, not z.record: a parameter or header named `__proto__` is kept (issue 24).
    query: z.optional(ownRecord(z.string(), Scalar)),
    headers: z.optional(ownRecord(z.string(), Scalar)),
    body: z.optional(z.unknown()),
    status: z.optional(
      z.union([Status, z.array(Status)], {
        error:
          'must be an HTTP status from 100 to 599, null (a failed connection), or an array of them',
      }),
    ),
    // Checked against the sandbox's operations (contract's and added ones, decision 0042) by checkRequestMatch.
    operation: z.optional(z.string()),
    times: z.optional(z.int().check(z.gte(0), z.lte(Number.MAX_SAFE_INTEGER))),
  })
}

/** The body of `POST /__sandbox/requests/expect`, made on first use (a start makes no control schema). */
export const EXPECT_BODY = madeWhenRead({ schema: makeExpectBodySchema })

export type ExpectBody = z.infer<ReturnType<typeof makeExpectBodySchema>>

const refuse = (code: MatchErrorCode, field: string, message: string): ApiError =>
  new ApiError(code, `Failed to read the match: ${field} ${message}.`, {
    details: [{ field, message }],
  })

/**
 * A match as JSON into the match itself: `pathRegExp` becomes a RegExp path
 * that matches in linear time (compilePathRegExp); what `checkRequestMatch`
 * refuses is a 400 (`code`) with its reason.
 *
 * @example
 * await toRequestMatch({ method: 'POST', pathRegExp: '^/v1/pets$' }, 'validation_failed')
 */
export const toRequestMatch = async (
  input: Omit<ExpectBody, 'times'>,
  code: MatchErrorCode,
  tools: JudgeTools = JUDGE_TOOLS,
): Promise<RequestMatch> => {
  const { pathRegExp, query, headers, ...rest } = input
  if (pathRegExp !== undefined && rest.path !== undefined)
    throw refuse(code, 'pathRegExp', 'cannot be given with path; send one of them')
  // The operation ids are the sandbox's (the contract's and those added to it, decision 0042):
  // an unknown one is a field of the body like any other, worded as the body's checks are.
  const { operation } = rest
  if (operation !== undefined && !tools.operationIds.includes(operation)) {
    const message = `must be one of ${tools.operationIds.join(', ')}, got ${JSON.stringify(operation)}`
    throw code === 'validation_failed'
      ? validationFailed('The match', [{ field: 'operation', message }])
      : refuse(code, 'operation', message)
  }
  const match = {
    ...rest,
    // Object.fromEntries defines own properties: a `__proto__` name stays a name.
    query: query === undefined ? undefined : Object.fromEntries(query),
    headers: headers === undefined ? undefined : Object.fromEntries(headers),
    ...(pathRegExp === undefined ? {} : { path: await compilePathRegExp(pathRegExp, code) }),
  }
  try {
    return checkRequestMatch(
      Object.fromEntries(Object.entries(match).filter(([, value]) => value !== undefined)),
      tools,
    )
  } catch (error) {
    if (!(error instanceof TypeError)) throw error
    throw new ApiError(code, error.message, {
      details: [{ field: '(match)', message: error.message }],
    })
  }
}

const once = (params: URLSearchParams, name: string): string | undefined => {
  const values = params.getAll(name)
  if (values.length > 1) throw repeatedParameter(name)
  return values[0]
}

const statusOf = (text: string): number | null => {
  if (text === 'none') return null
  if (!/^\d{3}$/.test(text)) throw invalidParameter('status', 'must be an HTTP status, or none')
  return Number(text)
}

/**
 * The filters of `GET /__sandbox/requests` as a match: `method` (repeatable),
 * `path` (a `:param` pattern) or `pathRegExp`, `status` (repeatable; `none`
 * for a failed connection), `operation`, `query.NAME`, `header.NAME`, and
 * `body` (JSON). Other parameters are 400 `invalid_parameter`, except the
 * sandbox's own (`__session`).
 *
 * @example
 * await readRequestFilters(new URLSearchParams('method=POST&body={"name":"Rex"}'))
 */
export const readRequestFilters = async (
  params: URLSearchParams,
  tools: JudgeTools = JUDGE_TOOLS,
): Promise<RequestMatch> => {
  const query = new Map<string, string>()
  const headers = new Map<string, string>()
  const known = new Set(['method', 'path', 'pathRegExp', 'status', 'operation', 'body'])
  for (const name of new Set(params.keys())) {
    if (name.startsWith('__') || known.has(name)) continue
    const dot = name.indexOf('.')
    const kind = name.slice(0, dot)
    const field = name.slice(dot + 1)
    if (dot > 0 && field !== '' && (kind === 'query' || kind === 'header')) {
      const value = once(params, name) as string
      ;(kind === 'query' ? query : headers).set(field, value)
      continue
    }
    throw invalidParameter(
      name,
      'is not a filter; use requestId, method, path, pathRegExp, status, operation, body, query.NAME or header.NAME',
    )
  }
  const methods = params.getAll('method')
  const statuses = params.getAll('status').map(statusOf)
  const operation = once(params, 'operation')
  if (operation !== undefined && !tools.operationIds.includes(operation))
    throw invalidParameter('operation', `must be one of ${tools.operationIds.join(', ')}`)
  const bodyText = once(params, 'body')
  let body: unknown
  if (bodyText !== undefined) {
    try {
      body = JSON.parse(bodyText)
    } catch {
      throw invalidParameter('body', 'must be JSON, e.g. {"name":"Rex"}')
    }
  }
  return toRequestMatch(
    {
      method: methods.length === 0 ? undefined : methods.length === 1 ? methods[0] : methods,
      path: once(params, 'path'),
      pathRegExp: once(params, 'pathRegExp'),
      status: statuses.length === 0 ? undefined : statuses.length === 1 ? statuses[0] : statuses,
      operation: operation as RequestMatch['operation'],
      query: query.size === 0 ? undefined : query,
      headers: headers.size === 0 ? undefined : headers,
      body,
    },
    'invalid_parameter',
    tools,
  )
}
