import { DEFAULT_HAR_BODY_CHARS } from '../judge/har-entry-stream.js'

/** The largest `--max-body-chars` taken: 256 Mi characters (V8 strings stop near 512 Mi). */
export const MAX_HAR_BODY_CHARS = 268_435_456

/**
 * `--max-body-chars N` of `report` and `pact`: the characters of each HAR
 * body kept, a whole number from 0 to {@link MAX_HAR_BODY_CHARS}; the
 * default when absent. Returns the number, or the usage error's sentence.
 *
 * @example
 * parseMaxBodyChars('4096') // 4096
 * parseMaxBodyChars('4k')   // 'Failed to read --max-body-chars: "4k" is not …'
 */
export const parseMaxBodyChars = (text: string | undefined): number | string => {
  if (text === undefined) return DEFAULT_HAR_BODY_CHARS
  const value = /^\d{1,10}$/.test(text) ? Number(text) : Number.NaN
  return Number.isInteger(value) && value <= MAX_HAR_BODY_CHARS
    ? value
    : `Failed to read --max-body-chars: "${text}" is not a whole number of characters from 0 to ${MAX_HAR_BODY_CHARS}.`
}
