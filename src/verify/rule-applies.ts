import type { OperationId } from '../contract/operation-ids.js'
import type { AnswerRule } from '../validation/answer-rules.js'

const EVERY: AnswerRule[] = [
  'spec.responses.status',
  'spec.responses.json',
  'spec.responses.content-type',
  'spec.rate-limit.headers',
  'spec.rate-limit.reset',
]
const ROUTED_GET = new Set([200, 400, 404, 410])

/**
 * The spec rules an answer is judged on, so that a rule no answer exercised
 * (a 429's Retry-After, say) is reported as not run rather than passed.
 *
 * @example
 * ruleApplies('getPet', 'GET', 404) // [..., 'spec.errors.body', 'spec.get.deprecation', ...]
 */
export const ruleApplies = (
  operation: OperationId | null,
  method: string,
  status: number,
  /** True for an operation an OpenAPI document added: its answers are checked against it. */
  documented = false,
): AnswerRule[] => {
  const rules = [...EVERY]
  if (documented) rules.push('spec.document.status')
  if (documented && status >= 200 && status < 300) rules.push('spec.document.body')
  if (status >= 400) rules.push('spec.errors.body', 'spec.errors.status')
  if (status === 401) rules.push('spec.auth.challenge')
  if (status === 405) rules.push('spec.errors.allow')
  if (status === 429) rules.push('spec.rate-limit.retry-after')
  if (method === 'HEAD') return rules
  if (operation === 'listPets' && status === 200) rules.push('spec.list.body', 'spec.list.limit')
  if (operation === 'createPet' && status === 201)
    rules.push('spec.create.body', 'spec.create.echo')
  if (operation === 'getPet') {
    if (status === 200) rules.push('spec.get.body', 'spec.get.id')
    if (ROUTED_GET.has(status)) rules.push('spec.get.deprecation', 'spec.get.sunset')
  }
  return rules
}
