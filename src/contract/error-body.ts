import { z } from 'zod'

/** One problem found in a request body or parameter. */
export const ErrorDetailSchema = z.object({
  field: z.string(),
  message: z.string(),
})
export type ErrorDetail = z.infer<typeof ErrorDetailSchema>

/** The Error body of every non-2xx answer. */
export const ErrorBodySchema = z.object({
  code: z.string(),
  message: z.string(),
  status: z.number().int(),
  details: z.array(ErrorDetailSchema).optional(),
})
export type ErrorBody = z.infer<typeof ErrorBodySchema>
