import * as z from 'zod/mini'
import { LIMITS } from '../../contract/limits.js'
import { PetNameSchema, PetSchema } from '../../contract/pet.js'
import { useEnglishZodMessages } from '../../contract/zod-messages.js'

// A broken data file is explained with zod's messages ("Invalid input: expected number…").
useEnglishZodMessages()

/**
 * A data file (`--data FILE`): the PetStore snapshot with a format version.
 * Ids are unique and below `nextId`, so a loaded file never reuses an id.
 */
export const DataFileSchema = z
  .object({
    version: z.literal(1),
    // One past the largest id once every id is used (createPet then answers 507).
    // (2^53 is not a safe integer, so zod's int() would refuse it.)
    nextId: z.number().check(
      z.refine((n) => Number.isInteger(n) && n >= 1 && n <= LIMITS.maxId + 1, {
        message: `must be an integer from 1 to ${LIMITS.maxId + 1}`,
      }),
    ),
    // Names by the API's own rules (trimmed, 1-100 code points, no control characters).
    pets: z.array(z.extend(PetSchema, { name: PetNameSchema })),
  })
  .check(
    z.superRefine((file, ctx) => {
      const seen = new Set<number>()
      file.pets.forEach((pet, index) => {
        if (seen.has(pet.id))
          ctx.addIssue({
            code: 'custom',
            path: ['pets', index, 'id'],
            message: 'is a duplicate id',
          })
        seen.add(pet.id)
        if (pet.id >= file.nextId)
          ctx.addIssue({
            code: 'custom',
            path: ['pets', index, 'id'],
            message: 'is not below nextId',
          })
      })
    }),
  )

export type DataFile = z.infer<typeof DataFileSchema>
