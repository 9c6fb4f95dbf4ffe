import { ERROR_CODES, type ErrorCode } from '../contract/error-codes.js'
import type { FidelitySettings } from '../contract/fidelity.js'
import { OWN_WORDS } from '../http/describe-issue.js'
import type { Violation } from './answer-rules.js'
import { AnswerErrorSchema, firstIssue } from './spec-schemas.js'

/** The codes a deployment answers under an `errorCodes` setting, each with its statuses. */
export interface ErrorCodeTable {
  /** This contract's codes the setting renames, to their new name. */
  renamed: ReadonlyMap<string, string>
  /** Every code the deployment answers, with the statuses it comes with. */
  statuses: ReadonlyMap<string, ReadonlySet<number>>
}

/**
 * The code table of an `errorCodes` setting, built once per validator.
 *
 * @example
 * buildErrorCodeTable({ pet_not_found: 'not_found' }).statuses.get('not_found') // Set { 404 }
 */
export const buildErrorCodeTable = (errorCodes: FidelitySettings['errorCodes']): ErrorCodeTable => {
  const renamed = new Map<string, string>()
  const statuses = new Map<string, Set<number>>()
  for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
    const answered = errorCodes[code] ?? code
    if (answered !== code) renamed.set(code, answered)
    const set = statuses.get(answered) ?? new Set<number>()
    set.add(ERROR_CODES[code])
    statuses.set(answered, set)
  }
  return { renamed, statuses }
}

/**
 * `spec.errors.body` and `spec.errors.status` for an error answer's parsed
 * body, and `gap.errorCodes` when the validator has an `errorCodes` setting.
 */
export const checkErrorAnswer = (
  status: number,
  value: unknown,
  codes: ErrorCodeTable | undefined,
  out: Violation[],
): void => {
  const parsed = AnswerErrorSchema.safeParse(value, OWN_WORDS)
  if (!parsed.success) {
    out.push({
      rule: 'spec.errors.body',
      message: `The ${status} body is not an Error: ${firstIssue(parsed.error, value)}.`,
    })
    return
  }
  const body = parsed.data
  if (body.code.trim() === '') {
    out.push({ rule: 'spec.errors.body', message: `The ${status} body's code is empty.` })
    return
  }
  if (body.status !== status) {
    out.push({
      rule: 'spec.errors.status',
      message: `The Error body says status ${body.status} in a ${status} answer.`,
    })
  }
  if (codes === undefined) return
  const renamedTo = codes.renamed.get(body.code)
  const known = codes.statuses.get(body.code)
  if (renamedTo !== undefined && known === undefined) {
    out.push({
      rule: 'gap.errorCodes',
      message: `The code "${body.code}" was answered; errorCodes renames it "${renamedTo}".`,
    })
  } else if (known === undefined) {
    out.push({
      rule: 'gap.errorCodes',
      message: `The code "${body.code}" (status ${status}) is not one of this contract's, nor mapped by errorCodes.`,
    })
  } else if (!known.has(status)) {
    out.push({
      rule: 'gap.errorCodes',
      message: `The code "${body.code}" came with status ${status}, not ${[...known].join(' or ')}.`,
    })
  }
}
