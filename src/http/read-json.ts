import type { ErrorDetail } from '../contract/error-body.js'
import { LIMITS } from '../contract/limits.js'
import { ApiError } from './api-error.js'
import { describeIssue, type Issue, OWN_WORDS } from './describe-issue.js'
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
    params?: typeof OWN_WORDS,
  ): { success: true; data: T } | { success: false; error: { issues: readonly Issue[] } }
}

export interface ReadJsonOptions {
  /** How messages name the body, e.g. `The pet` (default `The request body`). */
  subject?: string
  /** The `(body)` detail's message when the body is not a JSON object. */
  notAnObject?: string
  /** Bodies above this many bytes are 413 (default 65,536: the `maxBodyBytes` setting). */
  maxBodyBytes?: number
  /** The body's fields, named when an unknown one is refused. */
  fields?: readonly string[]
  /** Each detail says what was given, also where the schema words the rule (the control API). */
  showGiven?: boolean
  /** Any JSON value passes to the schema, not only an object (an OpenAPI document's array or string bodies). */
  anyJson?: boolean
}

/**
 * Every problem zod found, one detail each, in the schema's words or, where it
 * has none, describeIssue's (never zod's); a missing top-level field the
 * schema words says `is required`.
 */
const toDetails = (
  value: object,
  issues: readonly Issue[],
  options: Pick<ReadJsonOptions, 'fields' | 'showGiven'>,
): ErrorDetail[] => {
  const details: ErrorDetail[] = []
  const context = { input: value, fields: options.fields, given: options.showGiven }
  for (const issue of issues) {
    const message = describeIssue(issue, context)
    // An unknown field (unknownFields: 'reject', a strict control body): one detail naming each.
    if (issue.keys !== undefined && issue.path.length === 0) {
      for (const key of issue.keys) details.push({ field: key, message })
      continue
    }
    const field = issue.path.map(String).join('.')
    const top = issue.path[0]
    const missing = typeof top === 'string' && !Object.hasOwn(value, top)
    const detail = {
      field: field === '' ? '(body)' : field,
      message: missing && !message.startsWith('is required') ? 'is required' : message,
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
  if (
    options.anyJson !== true &&
    (typeof value !== 'object' || value === null || Array.isArray(value))
  ) {
    throw new ApiError(
      'validation_failed',
      options.notAnObject ?? `${subject} must be a JSON object.`,
      { details: [{ field: '(body)', message: 'must be a JSON object' }] },
    )
  }
  // A valid body takes zod's plain parse (a custom error map on every parse made createPet
  // slower, decision 0021); only a refused one is parsed again to word its issues.
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  const worded = schema.safeParse(value, OWN_WORDS)
  const issues = worded.success ? parsed.error.issues : worded.error.issues
  throw validationFailed(subject, toDetails(Object(value) as object, issues, options))
}
