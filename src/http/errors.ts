import type { ErrorDetail } from '../contract/error-body.js'
import { LIMITS } from '../contract/limits.js'
import { ApiError } from './api-error.js'

/**
 * The errors more than one module answers, each written once. Errors only one
 * module answers (`pet_not_found`, say) are built where they happen.
 */

const WWW_AUTHENTICATE = 'Bearer realm="petstore"'

/** The `WWW-Authenticate` challenge; RFC 6750 §3.1 adds error="invalid_token" only when a token was sent. */
export const bearerChallenge = (tokenSent: boolean): string =>
  tokenSent ? `${WWW_AUTHENTICATE}, error="invalid_token"` : WWW_AUTHENTICATE

const UNAUTHORIZED_MESSAGES = {
  missing_api_key: 'Send your API key as "Authorization: Bearer <API_KEY>".',
  malformed_authorization:
    'The Authorization header must be "Bearer <API_KEY>" with exactly one token.',
  invalid_api_key: 'The API key is unknown or has been revoked.',
} as const

/** 401 with its challenge. */
export const unauthorized = (
  code: keyof typeof UNAUTHORIZED_MESSAGES,
  options: { tokenSent: boolean; message?: string | undefined },
): ApiError =>
  new ApiError(code, options.message ?? UNAUTHORIZED_MESSAGES[code], {
    headers: { 'WWW-Authenticate': bearerChallenge(options.tokenSent) },
  })

/** 400 `invalid_parameter` naming the parameter. */
export const invalidParameter = (field: string, message: string): ApiError =>
  new ApiError('invalid_parameter', `The parameter "${field}" ${message}.`, {
    details: [{ field, message }],
  })

/** 400 `invalid_parameter` for a query parameter sent more than once. */
export const repeatedParameter = (name: string): ApiError =>
  new ApiError('invalid_parameter', `The query parameter "${name}" is repeated; send it once.`, {
    details: [{ field: name, message: 'must be given at most once' }],
  })

/** 404 `route_not_found`. */
export const routeNotFound = (path: string, hint = ''): ApiError =>
  new ApiError('route_not_found', `No route matches ${path}.${hint}`)

/** 405 `method_not_allowed` with `Allow`. */
export const methodNotAllowed = (
  method: string,
  path: string,
  allow: readonly string[],
): ApiError =>
  new ApiError(
    'method_not_allowed',
    `${method} is not allowed on ${path}. Allowed: ${allow.join(', ')}.`,
    { headers: { Allow: allow.join(', ') } },
  )

/** 413 `payload_too_large`. */
export const payloadTooLarge = (maxBodyBytes: number = LIMITS.maxBodyBytes): ApiError =>
  new ApiError('payload_too_large', `The request body is larger than ${maxBodyBytes} bytes.`)

/** 400 `validation_failed`, listing every problem (one of the whole body, `(body)`, as a sentence of its own). */
export const validationFailed = (subject: string, details: ErrorDetail[]): ApiError =>
  new ApiError(
    'validation_failed',
    `${subject} is invalid: ${details.map((d) => (d.field === '(body)' ? d.message : `${d.field} ${d.message}`)).join('; ')}.`,
    { details },
  )

/** 429 `rate_limit_exceeded` or `api_key_banned` with `Retry-After`. */
export const rateLimited = (
  code: 'rate_limit_exceeded' | 'api_key_banned',
  options: {
    retryAfterSeconds: number
    forcedBy?: string | undefined
    headers?: Record<string, string>
  },
): ApiError => {
  const forced =
    options.forcedBy === undefined ? '' : ` (forced by the "${options.forcedBy}" scenario)`
  const message =
    code === 'api_key_banned'
      ? `This API key kept sending requests while rate limited and is banned for a while${forced}. Back off exponentially.`
      : `Rate limit exceeded${forced}. Retry after the time given in the Retry-After header.`
  return new ApiError(code, message, {
    headers: { ...options.headers, 'Retry-After': String(options.retryAfterSeconds) },
  })
}

/** 500 `internal_error` for a programming error (the client never sees the cause). */
export const internalError = (): ApiError =>
  new ApiError('internal_error', 'The sandbox failed to answer this request.')
