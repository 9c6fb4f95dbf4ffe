import { repeatedParameter } from './errors.js'

/**
 * The value of a query parameter; a repeated parameter is 400 `invalid_parameter`.
 *
 * @example
 * singleParam(new URLSearchParams('limit=5'), 'limit') // '5'
 */
export const singleParam = (query: URLSearchParams, name: string): string | undefined => {
  const values = query.getAll(name)
  if (values.length > 1) throw repeatedParameter(name)
  return values[0]
}

// Canonical decimal: no sign, no leading zeros, no spaces.
const DECIMAL = /^[1-9][0-9]{0,15}$/

/**
 * Parses a canonical positive decimal integer no larger than `max`, or returns undefined.
 *
 * @example
 * parsePositiveInteger('20', 100) // 20
 * parsePositiveInteger('020', 100) // undefined
 */
export const parsePositiveInteger = (text: string, max: number): number | undefined => {
  if (!DECIMAL.test(text)) return undefined
  const value = Number(text)
  return value <= max ? value : undefined
}

const INTEGER = /^-?[0-9]+$/

/**
 * `limit` under `limitOutOfRange: 'clamp'` (contract §16): an integer is
 * clamped to `min`-`max`, anything else is `fallback`.
 *
 * @example
 * clampInteger('500', { min: 1, max: 100, fallback: 20 }) // 100
 * clampInteger('abc', { min: 1, max: 100, fallback: 20 }) // 20
 */
export const clampInteger = (
  text: string,
  bounds: { min: number; max: number; fallback: number },
): number => {
  if (!INTEGER.test(text)) return bounds.fallback
  return Math.min(bounds.max, Math.max(bounds.min, Number(text)))
}
