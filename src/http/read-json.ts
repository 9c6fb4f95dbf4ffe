import type { ErrorDetail } from '../contract/error-body.js'
import { LIMITS } from '../contract/limits.js'
import { ApiError } from './api-error.js'
import { payloadTooLarge, validationFailed } from './errors.js'
import type { SandboxRequest } from './types.js'

const decoder = new TextDecoder('utf-8', { fatal: true })

/** True for `application/json`, with or without parameters such as a charset. */
const isJsonContentType = (value: string | undefined): boolean =>
  value !== undefined && /^application\/json\s*(;|$)/i.test(value.trim())

/** The part of a Standard-Schema-like zod schema `readJson` uses (zod and zod/mini both fit). */
export interface BodySchema<T> {
  safeParse(
    value: unknown,
  ): { success: true; data: T } | { success: false; error: { issues: readonly BodyIssue[] } }
}

/** One problem zod found; `keys` lists the unknown fields of an `unrecognized_keys` issue. */
interface BodyIssue {
  path: PropertyKey[]
  message: string
  keys?: readonly string[]
}

export interface ReadJsonOptions {
  /** How messages name the body, e.g. `The pet` (default `The request body`). */
  subject?: string
  /** The `(body)` detail's message when the body is not a JSON object. */
  notAnObject?: string
  /** Bodies above this many bytes are 413 (default 65,536: the `maxBodyBytes` setting). */
  maxBodyBytes?: number
}

/** Every problem zod found, one detail each; a missing top-level field says `is required`. */
const toDetails = (value: object, issues: readonly BodyIssue[]): ErrorDetail[] => {
  const details: ErrorDetail[] = []
  for (const issue of issues) {
    // An unknown field (unknownFields: 'reject'): one detail naming each.
    if (issue.keys !== undefined && issue.path.length === 0) {
      for (const key of issue.keys) details.push({ field: key, message: issue.message })
      continue
    }
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
  return details
}

/**
 * Reads a JSON request body and validates it: 413 over 64 KiB (or `maxBodyBytes`), 400
 * `invalid_content_type` without `Content-Type: application/json`, 400
 * `malformed_json` for bytes that are not UTF-8 JSON, 400 `validation_failed`
 * for a body that is not a JSON object or breaks the schema (every problem in
 * `details`). The API's createPet and the control API both read bodies here.
 *
 * @example
 * const newPet = readJson(request, NewPetSchema, { subject: 'The pet' })
 */
export const readJson = <T>(
  request: Pick<SandboxRequest, 'body' | 'headers'>,
  schema: BodySchema<T>,
  options: ReadJsonOptions = {},
): T => {
  const body = request.body
  const maxBodyBytes = options.maxBodyBytes ?? LIMITS.maxBodyBytes
  if (body !== null && body.byteLength > maxBodyBytes) throw payloadTooLarge(maxBodyBytes)
  if (!isJsonContentType(request.headers['content-type'])) {
    throw new ApiError(
      'invalid_content_type',
      'The request body must be sent with "Content-Type: application/json".',
    )
  }
  if (body === null || body.byteLength === 0) {
    throw new ApiError('malformed_json', 'The request body is empty; send a JSON object.')
  }
  let value: unknown
  try {
    value = JSON.parse(decoder.decode(body))
  } catch {
    throw new ApiError('malformed_json', 'The request body is not valid JSON (UTF-8).')
  }
  const subject = options.subject ?? 'The request body'
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ApiError(
      'validation_failed',
      options.notAnObject ?? `${subject} must be a JSON object.`,
      { details: [{ field: '(body)', message: 'must be a JSON object' }] },
    )
  }
  const parsed = schema.safeParse(value)
  if (!parsed.success) throw validationFailed(subject, toDetails(value, parsed.error.issues))
  return parsed.data
}
