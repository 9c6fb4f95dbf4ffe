import { NewPetSchema } from '../contract/pet.js'
import { ApiError, jsonResponse } from '../core/api-error.js'
import type { Operation } from './operation.js'
import { readJsonBody } from './read-json-body.js'

/**
 * POST /pets (createPet): validates a NewPet, listing every problem in
 * `details`, and answers 201 with the stored Pet and its `Location`.
 */
export const createPet: Operation = async ({ request, url, store, settings }) => {
  const value = readJsonBody(request)
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ApiError('validation_failed', 'The request body must be a JSON object (a NewPet).', {
      details: [{ field: '(body)', message: 'must be a JSON object' }],
    })
  }
  const parsed = NewPetSchema.safeParse(value)
  if (!parsed.success) {
    const details: { field: string; message: string }[] = []
    for (const issue of parsed.error.issues) {
      const field = issue.path.map(String).join('.')
      const top = issue.path[0]
      const missing = typeof top === 'string' && !Object.hasOwn(value, top)
      const detail = {
        field: field === '' ? '(body)' : field,
        message: missing ? 'is required' : issue.message,
      }
      // One check can fail twice for one value (2^53 is both unsafe and too big): list a problem once.
      if (!details.some((d) => d.field === detail.field && d.message === detail.message))
        details.push(detail)
    }
    throw new ApiError(
      'validation_failed',
      `The pet is invalid: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}.`,
      { details },
    )
  }
  // Checked and taken with no await between, so concurrent creates cannot pass it together.
  if (store.exhausted)
    throw new ApiError('id_space_exhausted', 'No pet id below 2^53 is left; reset the sandbox.')
  const pet = await store.create(parsed.data)
  return jsonResponse(201, pet, { Location: `${url.origin}${settings.basePath}/pets/${pet.id}` })
}
