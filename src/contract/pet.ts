// zod/mini: the same checks and messages as classic zod, in a build a bundler
// tree-shakes (docs/decisions/0016-light-bundled-dist.md).
import * as z from 'zod/mini'
import { LIMITS } from './limits.js'

/**
 * The single description of the Pet Store resources. Types, request
 * validation, the @msw/data collection and the OpenAPI document test all
 * derive from these schemas.
 */
export const PET_STATUSES = ['available', 'pending', 'sold'] as const

export const PetStatusSchema = z.enum(PET_STATUSES)
export type PetStatus = z.infer<typeof PetStatusSchema>

// Unicode category Cc: C0 and C1 control characters and DEL. Names with them are rejected.
const CONTROL_CHARACTER = /\p{Cc}/u

const countCodePoints = (value: string): number => {
  let count = 0
  for (const _ of value) count++
  return count
}

/** `name`: a JSON string; trimmed it has 1 to 100 code points and no control characters. */
export const PetNameSchema = z
  .pipe(
    z.string({ error: 'must be a string' }),
    z.transform((value: string) => value.trim()),
  )
  .check((ctx) => {
    const length = countCodePoints(ctx.value)
    if (length < LIMITS.nameMinCodePoints) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value,
        message: 'must not be empty or only whitespace',
      })
    } else if (length > LIMITS.nameMaxCodePoints) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value,
        message: `must have at most ${LIMITS.nameMaxCodePoints} characters (Unicode code points) after trimming`,
      })
    }
    if (CONTROL_CHARACTER.test(ctx.value)) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value,
        message: 'must not contain control characters',
      })
    }
  })

/** `categoryId` and `id`: a JSON integer from 1 to 2^53 - 1. */
export const PositiveIdSchema = z.number({ error: 'must be an integer' }).check(
  // Zod's int() also refuses unsafe integers (as too_big): name the bound then, not the type.
  z.int({
    error: (issue) =>
      issue.code === 'too_big' ? `must be at most ${LIMITS.maxId}` : 'must be an integer',
  }),
  z.gte(1, { error: 'must be at least 1' }),
  z.lte(LIMITS.maxId, { error: `must be at most ${LIMITS.maxId}` }),
)

/** The request body of createPet. Unknown fields (`id` included) are dropped. */
export const NewPetSchema = z.object({
  name: PetNameSchema,
  categoryId: PositiveIdSchema,
  status: z._default(
    z.enum(PET_STATUSES, { error: `must be one of ${PET_STATUSES.join(', ')}` }),
    'available',
  ),
})
export type NewPetInput = z.input<typeof NewPetSchema>
export type NewPet = z.output<typeof NewPetSchema>

/** A stored Pet, as the service returns it. Also the @msw/data collection schema. */
export const PetSchema = z.object({
  id: PositiveIdSchema,
  name: z.string(),
  categoryId: PositiveIdSchema,
  status: PetStatusSchema,
})
export type Pet = z.infer<typeof PetSchema>

export const PetsSchema = z.array(PetSchema)
