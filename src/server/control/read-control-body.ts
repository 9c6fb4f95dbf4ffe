import type { IncomingMessage } from 'node:http'
import type { z } from 'zod'
import { LIMITS } from '../../contract/limits.js'
import { ApiError } from '../../core/api-error.js'
import { readRequestBody } from '../read-request-body.js'

const decoder = new TextDecoder('utf-8', { fatal: true })

/**
 * Reads a control request's JSON body and checks it against `schema`, with
 * the API's own errors: 413 `payload_too_large`, 400 `invalid_content_type`,
 * `malformed_json` and `validation_failed` (every problem in `details`).
 *
 * @example
 * const { name } = await readControlBody(req, z.object({ name: z.string() }))
 */
export const readControlBody = async <T>(
  req: IncomingMessage,
  schema: z.ZodType<T>,
): Promise<T> => {
  const read = await readRequestBody(req, LIMITS.maxBodyBytes)
  if (read.kind === 'too-large' || read.kind === 'aborted') {
    throw new ApiError(
      'payload_too_large',
      `The request body is larger than ${LIMITS.maxBodyBytes} bytes.`,
    )
  }
  const contentType = req.headers['content-type']
  if (contentType === undefined || !/^application\/json\s*(;|$)/i.test(contentType.trim())) {
    throw new ApiError(
      'invalid_content_type',
      'The request body must be sent with "Content-Type: application/json".',
    )
  }
  let value: unknown
  try {
    value = JSON.parse(decoder.decode(read.body ?? new Uint8Array()))
  } catch {
    throw new ApiError('malformed_json', 'The request body is not valid JSON (UTF-8).')
  }
  const parsed = schema.safeParse(value)
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => ({
      field: issue.path.length === 0 ? '(body)' : issue.path.map(String).join('.'),
      message: issue.message,
    }))
    throw new ApiError(
      'validation_failed',
      `The request body is invalid: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}.`,
      { details },
    )
  }
  return parsed.data
}
