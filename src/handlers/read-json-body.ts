import { LIMITS } from '../contract/limits.js'
import { ApiError } from '../core/api-error.js'
import type { SandboxRequest } from '../core/types.js'

const decoder = new TextDecoder('utf-8', { fatal: true })

/** True for `application/json`, with or without parameters such as a charset. */
const isJsonContentType = (value: string | undefined): boolean =>
  value !== undefined && /^application\/json\s*(;|$)/i.test(value.trim())

/**
 * Reads a JSON request body: 413 over 64 KiB, 400 `invalid_content_type`
 * without `Content-Type: application/json`, 400 `malformed_json` for bytes
 * that are not UTF-8 JSON. Returns the parsed value, whatever its type.
 */
export const readJsonBody = (request: SandboxRequest): unknown => {
  const body = request.body
  if (body !== null && body.byteLength > LIMITS.maxBodyBytes) {
    throw new ApiError(
      'payload_too_large',
      `The request body is larger than ${LIMITS.maxBodyBytes} bytes.`,
    )
  }
  if (!isJsonContentType(request.headers['content-type'])) {
    throw new ApiError(
      'invalid_content_type',
      'The request body must be sent with "Content-Type: application/json".',
    )
  }
  if (body === null || body.byteLength === 0) {
    throw new ApiError('malformed_json', 'The request body is empty; send a JSON object.')
  }
  try {
    return JSON.parse(decoder.decode(body))
  } catch {
    throw new ApiError('malformed_json', 'The request body is not valid JSON (UTF-8).')
  }
}
