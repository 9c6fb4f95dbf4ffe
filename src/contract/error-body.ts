import * as z from 'zod/mini'

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
  status: z.int(),
  details: z.optional(z.array(ErrorDetailSchema)),
})
export type ErrorBody = z.infer<typeof ErrorBodySchema>
