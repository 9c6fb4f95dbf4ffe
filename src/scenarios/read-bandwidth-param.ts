import { SLOW_BODY_BYTES_PER_SECOND } from '../faults/slow-body.js'
import { invalidParameter } from '../http/errors.js'
import { singleParam } from '../http/query.js'
import type { ScenarioContext } from './define-scenario.js'

/** The fastest `__bandwidth`, in bytes a second. */
export const MAX_BANDWIDTH = 10_000_000

const DECIMAL = /^[1-9][0-9]{0,7}$/

/**
 * The body speed a request asks for with `__bandwidth=BYTES` (a whole number
 * of bytes a second from 1 to 10,000,000), else 1,024. Anything else, or the
 * parameter repeated, is 400 `invalid_parameter` naming `__bandwidth`.
 *
 * @example
 * faultSetting: readBandwidthParam
 */
export const readBandwidthParam = (ctx: Pick<ScenarioContext, 'url'>): number => {
  const text = singleParam(ctx.url.searchParams, '__bandwidth')
  if (text === undefined) return SLOW_BODY_BYTES_PER_SECOND
  const value = DECIMAL.test(text) ? Number(text) : Number.NaN
  if (!(value <= MAX_BANDWIDTH)) {
    throw invalidParameter(
      '__bandwidth',
      `must be a whole number of bytes a second from 1 to ${MAX_BANDWIDTH}`,
    )
  }
  return value
}
