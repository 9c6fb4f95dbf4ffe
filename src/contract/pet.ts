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

// With `u`, a surrogate pair is one code point, so \p{Cs} matches only a lone half.
const LONE_SURROGATE = /\p{Cs}/u

/**
 * True when a string is well-formed Unicode: no lone surrogate (`"\ud800"` in JSON), which is
 * no character, cannot be stored as UTF-8 and reads back as U+FFFD. The same answer as ES2024's
 * `String.prototype.isWellFormed` (a test compares them), in every engine the bundle targets.
 *
 * @example
 * isWellFormedText('Rex\ud800') // false
 */
export const isWellFormedText = (value: string): boolean => !LONE_SURROGATE.test(value)

const countCodePoints = (value: string): number => {
  let count = 0
  for (const _ of value) count++
  return count
}

/**
 * `name`: a JSON string; trimmed it has 1 to `maxLength` code points (default
 * 100, the `nameMaxLength` setting), no control characters, and is
 * well-formed Unicode (no lone surrogate).
 *
 * @example
 * createPetNameSchema(50).safeParse('x'.repeat(51)).success // false
 */
export const createPetNameSchema = (maxLength: number = LIMITS.nameMaxCodePoints) =>
  z
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
      } else if (length > maxLength) {
        ctx.issues.push({
          code: 'custom',
          input: ctx.value,
          message: `must have at most ${maxLength} characters (Unicode code points) after trimming`,
        })
      }
      if (CONTROL_CHARACTER.test(ctx.value)) {
        ctx.issues.push({
          code: 'custom',
          input: ctx.value,
          message: 'must not contain control characters',
        })
      }
      if (!isWellFormedText(ctx.value)) {
        ctx.issues.push({
          code: 'custom',
          input: ctx.value,
          message:
            'must be well-formed Unicode: it holds half of a surrogate pair (such as \\ud800) without the other',
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

/** The NewPet rules a sandbox can be calibrated on (contract §16). */
export interface NewPetRules {
  /** The status of a pet sent without one (default `available`). */
  defaultStatus?: PetStatus
  /** The longest name in code points, trimmed (default 100). */
  nameMaxLength?: number
  /** Unknown fields: dropped (default), or each one a `validation_failed` detail. */
  unknownFields?: 'ignore' | 'reject'
}

/**
 * The request body of createPet under these rules; a sandbox builds its own
 * once from its settings. Unknown fields (`id` included) are dropped, or
 * rejected with `unknownFields: 'reject'`.
 *
 * @example
 * createNewPetSchema({ defaultStatus: 'pending' }).parse({ name: 'Rex', categoryId: 1 }).status // 'pending'
 */
export const createNewPetSchema = (rules: NewPetRules = {}) => {
  const shape = {
    name: createPetNameSchema(rules.nameMaxLength),
    categoryId: PositiveIdSchema,
    status: z._default(
      z.enum(PET_STATUSES, { error: `must be one of ${PET_STATUSES.join(', ')}` }),
      rules.defaultStatus ?? 'available',
    ),
  }
  return rules.unknownFields === 'reject'
    ? z.strictObject(shape, { error: 'is not a field of NewPet' })
    : z.object(shape)
}

/** The request body of createPet under the contract's defaults. */
export const NewPetSchema = createNewPetSchema()
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
