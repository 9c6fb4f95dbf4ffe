import type { ErrorBody, ErrorDetail } from '../contract/error-body.js'
import { ERROR_CODES, type ErrorCode } from '../contract/error-codes.js'
import { jsonResponse } from './json-response.js'
import type { SandboxResponse } from './types.js'

export interface ApiErrorOptions {
  details?: ErrorDetail[] | undefined
  headers?: Record<string, string> | undefined
}

/** Marks every ApiError, whichever copy of the package made it (see `Symbol.hasInstance`). */
const BRAND = Symbol.for('petstore-sandbox.ApiError')

/**
 * The one way to answer an error: throw or return an ApiError and the pipeline
 * turns it into the contract's Error body with its headers. The common errors
 * have factories in `errors.ts`.
 *
 * @example
 * throw new ApiError('pet_not_found', 'No pet has the id 42.')
 */
export class ApiError extends Error {
  /**
   * `instanceof ApiError` holds for an ApiError of another copy of this
   * package too: the bundled CLI has its own, and a config file's scenarios
   * import theirs from `petstore-sandbox/server`.
   */
  static [Symbol.hasInstance](value: unknown): boolean {
    // A subclass (StaleStateError) keeps the ordinary check: the brand says ApiError, not which.
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class instanceof asks about, a subclass included.
    if (this !== ApiError) return Function.prototype[Symbol.hasInstance].call(this, value)
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as { [BRAND]?: unknown })[BRAND] === true
    )
  }

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

// The brand lives on the prototype, set once: an instance costs no property definition of
// its own (a 429 makes one per request), and every subclass and instance inherits it.
Object.defineProperty(ApiError.prototype, BRAND, { value: true })
