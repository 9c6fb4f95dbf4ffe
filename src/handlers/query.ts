import { ApiError } from '../core/api-error.js'

/** Query parameters the sandbox consumes itself: never validated as API parameters, never echoed in links. */
export const SANDBOX_QUERY_PARAMS = ['__scenario', '__delay'] as const

/**
 * The value of a query parameter; a repeated parameter is 400 `invalid_parameter`.
 */
export const singleParam = (query: URLSearchParams, name: string): string | undefined => {
  const values = query.getAll(name)
  if (values.length > 1) {
    throw new ApiError(
      'invalid_parameter',
      `The query parameter "${name}" is repeated; send it once.`,
      {
        details: [{ field: name, message: 'must be given at most once' }],
      },
    )
  }
  return values[0]
}

export const invalidParameter = (field: string, message: string): ApiError =>
  new ApiError('invalid_parameter', `The parameter "${field}" ${message}.`, {
    details: [{ field, message }],
  })

// Canonical decimal: no sign, no leading zeros, no spaces.
const DECIMAL = /^[1-9][0-9]{0,15}$/

/** Parses a canonical positive decimal integer no larger than `max`, or returns undefined. */
export const parsePositiveInteger = (text: string, max: number): number | undefined => {
  if (!DECIMAL.test(text)) return undefined
  const value = Number(text)
  return value <= max ? value : undefined
}
