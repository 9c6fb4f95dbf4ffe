import { ApiError } from '../../http/api-error.js'

/** The longest `pathRegExp` the control API takes, in characters: a path pattern needs far fewer. */
export const MAX_PATH_REGEXP_LENGTH = 256
/**
 * The largest compiled program (RE2 instructions) a `pathRegExp` may make. Matching costs at
 * most the path's length times this, whatever the pattern (`[\s\S]{990}x` is near the cap).
 */
export const MAX_PATH_REGEXP_PROGRAM = 1_000

/** How a bad match is answered: 400 `invalid_parameter` for the query's filters, `validation_failed` for a body. */
export type MatchErrorCode = 'invalid_parameter' | 'validation_failed'

const refuse = (code: MatchErrorCode, message: string): ApiError =>
  new ApiError(code, `Failed to read the match: pathRegExp ${message}.`, {
    details: [{ field: 'pathRegExp', message }],
  })

type Re2 = { test(text: string): boolean; exec(text: string): RegExpExecArray | null }

/**
 * A RegExp whose matching runs on RE2 (re2js): linear in the path's length, so no pattern a
 * caller sends can stall the server (`^/v1/(a+)+$` against `/v1/aaaa…!` is answered at once).
 * It is a RegExp for everything else (its source shows in messages as sent).
 */
class LinearRegExp extends RegExp {
  readonly #re2: Re2
  constructor(source: string, re2: Re2) {
    super(source)
    this.#re2 = re2
  }
  override exec(text: string): RegExpExecArray | null {
    return this.#re2.exec(String(text))
  }
  override test(text: string): boolean {
    return this.#re2.test(String(text))
  }
}

/**
 * The `pathRegExp` of `GET /__sandbox/requests` or `POST /__sandbox/requests/expect` as a
 * RegExp that matches in linear time (docs/decisions/0035-path-regexp-on-re2.md). JavaScript
 * syntax, but for what RE2 cannot run in linear time: a backreference or lookaround, a pattern
 * over 256 characters or one that compiles to more than 1,000 instructions is a 400 (`code`)
 * that names `pathRegExp` and says why. re2js is loaded on the first `pathRegExp`, never at start.
 *
 * @example
 * const path = await compilePathRegExp('^/v1/pets/\\d+$', 'invalid_parameter')
 * path.test('/v1/pets/7') // true
 */
export const compilePathRegExp = async (source: string, code: MatchErrorCode): Promise<RegExp> => {
  if (source.length > MAX_PATH_REGEXP_LENGTH)
    throw refuse(
      code,
      `is ${source.length} characters long; at most ${MAX_PATH_REGEXP_LENGTH} are allowed`,
    )
  try {
    new RegExp(source)
  } catch (error) {
    throw refuse(
      code,
      `is not a regular expression (${error instanceof Error ? error.message : String(error)})`,
    )
  }
  const { RE2JS } = await import('./re2js.js')
  let re2: InstanceType<typeof RE2JS>
  try {
    re2 = RE2JS.compile(RE2JS.translateRegExp(source))
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw refuse(
      code,
      `cannot be matched in linear time (${reason}); backreferences, lookahead, lookbehind and repetition counts over 1000 are not supported`,
    )
  }
  if (re2.programSize() > MAX_PATH_REGEXP_PROGRAM)
    throw refuse(
      code,
      `is too complex: it compiles to ${re2.programSize()} instructions, at most ${MAX_PATH_REGEXP_PROGRAM} are allowed; use fewer or smaller repetition counts`,
    )
  return new LinearRegExp(source, re2 as unknown as Re2)
}
