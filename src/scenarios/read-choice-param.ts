import { invalidParameter } from '../http/errors.js'
import { singleParam } from '../http/query.js'
import type { ScenarioContext } from './define-scenario.js'

/**
 * The choice a request makes with `name=WORD` among `choices` (exact,
 * lower-case words), as its index: 0, the first, without the parameter.
 * Anything else, or the parameter repeated, is 400 `invalid_parameter`
 * naming it (answered before the operation runs).
 *
 * @example
 * faultSetting: (ctx) => readChoiceParam(ctx, '__drop', ['close', 'reset'])
 */
export const readChoiceParam = (
  ctx: Pick<ScenarioContext, 'url'>,
  name: string,
  choices: readonly string[],
): number => {
  const text = singleParam(ctx.url.searchParams, name)
  if (text === undefined) return 0
  const index = choices.indexOf(text)
  if (index === -1) throw invalidParameter(name, `must be ${choices.join(' or ')}`)
  return index
}
