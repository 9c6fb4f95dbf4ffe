import type { ErrorBody, ErrorDetail } from '../contract/error-body.js'
import { ERROR_CODES, type ErrorCode } from '../contract/error-codes.js'
import { jsonResponse } from './json-response.js'
import type { SandboxResponse } from './types.js'

export interface ApiErrorOptions {
  details?: ErrorDetail[] | undefined
  headers?: Record<string, string> | undefined
}

/**
 * The one way to answer an error: throw or return an ApiError and the pipeline
 * turns it into the contract's Error body with its headers. The common errors
 * have factories in `errors.ts`.
 *
 * @example
 * throw new ApiError('pet_not_found', 'No pet has the id 42.')
 */
export class ApiError extends Error {
  readonly code: ErrorCode
  readonly status: number
  readonly details: ErrorDetail[] | undefined
  readonly headers: Record<string, string>

  constructor(code: ErrorCode, message: string, options: ApiErrorOptions = {}) {
    // An answer, not a bug: no stack trace to capture (it cost a 429 more than its answer).
    const limit = Error.stackTraceLimit
    Error.stackTraceLimit = 0
    super(message)
    Error.stackTraceLimit = limit
    this.name = 'ApiError'
    this.code = code
    this.status = ERROR_CODES[code]
    this.details = options.details
    this.headers = options.headers ?? {}
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { code: this.code, message: this.message, status: this.status }
    if (this.details !== undefined && this.details.length > 0) body.details = this.details
    return body
  }

  toResponse(): SandboxResponse {
    return jsonResponse(this.status, this.toBody(), this.headers)
  }
}
