import * as z from 'zod/mini'
import { PetSchema, PositiveIdSchema } from '../../contract/pet.js'
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
    nextId: PositiveIdSchema,
    pets: z.array(PetSchema),
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
