import { invalidParameter } from '../http/errors.js'
import { singleParam } from '../http/query.js'
import type { ScenarioContext } from './define-scenario.js'

/** The largest delay, in ms, a scenario holds a request: nothing hangs for ever. */
export const MAX_DELAY_MS = 30_000

const DECIMAL = /^(0|[1-9][0-9]{0,4})$/

/**
 * The delay a request asks for with `__delay=MS` (a whole number from 0 to
 * 30000), or `fallbackMs` without one. Anything else is 400
 * `invalid_parameter` naming `__delay`.
 *
 * @example
 * delayMs: (ctx) => readDelayParam(ctx, 2_000)
 */
export const readDelayParam = (ctx: Pick<ScenarioContext, 'url'>, fallbackMs: number): number => {
  const text = singleParam(ctx.url.searchParams, '__delay')
  if (text === undefined) return fallbackMs
  const value = DECIMAL.test(text) ? Number(text) : Number.NaN
  if (!(value <= MAX_DELAY_MS)) {
    throw invalidParameter(
      '__delay',
      `must be a whole number of milliseconds from 0 to ${MAX_DELAY_MS}`,
    )
  }
  return value
}
