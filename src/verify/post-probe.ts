import type { Observed } from './probe-runner.js'
import { probe, type VerifyContext } from './verify-context.js'

/** The most pets one run may create (issue 18: at most 5, recognisably named). */
export const MAX_CREATED_PETS = 5

/**
 * Sends a POST /pets for a check, unless the run has created its 5 pets
 * (then resolves undefined and notes why). A 201 is counted as a created pet.
 *
 * @example
 * const answer = await postPet(ctx, 'spec.create.created', JSON.stringify(newPet))
 */
export const postPet = async (
  ctx: VerifyContext,
  check: string,
  body: string,
  contentType = 'application/json',
): Promise<Observed | undefined> => {
  if (ctx.created.length >= MAX_CREATED_PETS) {
    ctx.writesStopped = `The run created ${MAX_CREATED_PETS} pets, the most it may; no more POSTs.`
    return undefined
  }
  const answer = await probe(ctx, check, 'createPet', {
    method: 'POST',
    path: '/pets',
    headers: { 'content-type': contentType },
    body,
  })
  if (answer?.status === 201) {
    const pet = answer.json as { id?: unknown; name?: unknown } | undefined
    ctx.created.push({
      id: typeof pet?.id === 'number' ? pet.id : Number.NaN,
      name: typeof pet?.name === 'string' ? pet.name : '(unknown)',
    })
  }
  return answer
}

/** The fields an Error's `details` names (`name`, `categoryId`…), last path segment each. */
export const detailFields = (answer: Observed): string[] => {
  const details = (answer.json as { details?: unknown } | undefined)?.details
  if (!Array.isArray(details)) return []
  return details.flatMap((detail: unknown) => {
    const field = (detail as { field?: unknown } | null)?.field
    return typeof field === 'string' ? [field.split(/[./]/).pop() ?? field] : []
  })
}
