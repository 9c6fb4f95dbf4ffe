import type { ErrorObject } from 'ajv'
import type { Violation } from '../validation/answer-rules.js'
import type { CompiledOperation, DeclaredResponse } from './compile-openapi-operations.js'

/** One answer of an added operation, as the client got it. */
export interface DocumentAnswer {
  method: string
  status: number
  /** The body text; null or '' for none. */
  body: string | null
}

/** What the pipeline itself answers any keyed added operation with (decision 0042). */
const PIPELINE_STATUSES = [401, 429, 500, 503]
/** From the HTTP layer or a gateway, for any request (contract §15). */
const HTTP_LAYER_STATUSES = [414, 417, 431, 501, 502, 504]
/** The most schema errors one violation names. */
const MAX_FIELDS = 5

/** Whether the document lets the operation answer 404 (`404`, `4XX` or `default`): else an unknown id is answered statelessly (decision 0059). */
export const declaresNotFound = (operation: CompiledOperation): boolean =>
  operation.responses.some((r) => r.code === '404' || r.code === '4XX' || r.code === 'default')

/**
 * The statuses the sandbox itself answers an added operation with beyond its
 * first success: 400 for a parameter or body the document refuses, 404
 * `not_found` for a collection's unknown id (where the document declares a 404), 413 for a body past the limit.
 *
 * @example
 * sandboxStatuses(op) // [200, 400, 404]
 */
export const sandboxStatuses = (op: CompiledOperation): number[] => [
  op.success.status,
  ...(op.parameters.length > 0 ||
  op.body !== undefined ||
  op.otherBodies?.required === true ||
  op.role === 'list'
    ? [400]
    : []),
  ...(op.collection !== undefined &&
  op.role !== 'list' &&
  op.role !== 'create' &&
  declaresNotFound(op)
    ? [404]
    : []),
  ...(op.body === undefined && op.otherBodies === undefined ? [] : [413]),
]

/** The response the document declares for a status: the exact code, its range (`4XX`), then `default`. */
export const declaredFor = (
  op: CompiledOperation,
  status: number,
): DeclaredResponse | undefined => {
  const exact = String(status)
  const range = `${exact[0]}XX`
  return (
    op.responses.find((r) => r.code === exact) ??
    op.responses.find((r) => r.code === range) ??
    op.responses.find((r) => r.code === 'default')
  )
}

/** `/0/name must be string`, `(body) must have required property 'id'`. */
const describeError = (error: ErrorObject): string => {
  const where = error.instancePath === '' ? '(body)' : error.instancePath
  const extra =
    error.keyword === 'additionalProperties' && typeof error.params.additionalProperty === 'string'
      ? ` (${error.params.additionalProperty})`
      : error.keyword === 'enum' && Array.isArray(error.params.allowedValues)
        ? ` (${JSON.stringify(error.params.allowedValues)})`
        : ''
  return `${where} ${error.message ?? 'is not valid'}${extra}`
}

/**
 * Checks one answer of an operation an OpenAPI document added against that
 * document (contract §20): `spec.document.status`, the status is one the
 * document declares for it (exact, range or `default`) or one the sandbox and
 * the HTTP layer give any added operation; `spec.document.body`, a JSON body of a
 * declared response is valid against that response's schema, naming each
 * field that is not (up to five). A body that is not JSON is left to
 * `spec.responses.json`; undeclared errors to the contract's Error rules.
 *
 * @example
 * checkDocumentAnswer(op, { method: 'GET', status: 200, body: '[{"id":"x"}]' })
 * // [{ rule: 'spec.document.body', message: 'listCategories answered 200 with a body its document does not allow: /0/id must be integer.' }]
 */
export const checkDocumentAnswer = (op: CompiledOperation, answer: DocumentAnswer): Violation[] => {
  const { status } = answer
  const declared = declaredFor(op, status)
  if (
    declared === undefined &&
    !sandboxStatuses(op).includes(status) &&
    !PIPELINE_STATUSES.includes(status) &&
    !HTTP_LAYER_STATUSES.includes(status)
  ) {
    const codes = op.responses.map((r) => r.code).join(', ')
    return [
      {
        rule: 'spec.document.status',
        message: `${op.id} answered ${status}, a status its document does not declare (${codes === '' ? 'none' : codes}).`,
      },
    ]
  }
  const check = declared?.check
  if (check === undefined || answer.method === 'HEAD' || status === 204 || status === 304) return []
  const text = answer.body ?? ''
  if (text === '') return []
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return []
  }
  const result = check(value)
  if (result === true) return []
  const fields = result.slice(0, MAX_FIELDS).map(describeError)
  const more = result.length > MAX_FIELDS ? ` (and ${result.length - MAX_FIELDS} more)` : ''
  return [
    {
      rule: 'spec.document.body',
      message: `${op.id} answered ${status} with a body its document does not allow: ${fields.join('; ')}${more}.`,
    },
  ]
}
