import type { KeyOption } from '../auth/key-registry.js'
import { isValidKeyText } from '../auth/parse-authorization.js'
import { isPlanName, PLAN_NAMES } from '../contract/plans.js'

/** A bad `--key` value; the message names the source (`--key` or the environment variable). */
export class KeyFlagError extends Error {
  override name = 'KeyFlagError'
}

const readLimit = (name: string, text: string, value: string): number | undefined => {
  if (text === '') return undefined
  if (!/^[0-9]+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text)))
    throw new KeyFlagError(`"${value}": ${name} must be a whole number >= 1, got "${text}"`)
  return Number(text)
}

/**
 * Reads one `--key` value: `NAME=PLAN`, or `NAME=enterprise:PER_MINUTE:PER_DAY`
 * for an enterprise key with its own limits (either limit may be left empty
 * for the plan's default: `big-co=enterprise::2000000`).
 *
 * @example
 * parseKeyFlag('team-key=pro') // ['team-key', 'pro']
 * parseKeyFlag('big-co=enterprise:20000:2000000') // ['big-co', { plan: 'enterprise', perMinute: 20000, perDay: 2000000 }]
 */
export const parseKeyFlag = (value: string): [string, KeyOption] => {
  const equals = value.indexOf('=')
  if (equals < 1)
    throw new KeyFlagError(
      `"${value}" is not NAME=PLAN (such as team-key=pro or big-co=enterprise:20000:2000000)`,
    )
  const name = value.slice(0, equals)
  if (!isValidKeyText(name))
    throw new KeyFlagError(
      `"${name}": a key is 1 to 200 characters of A-Z a-z 0-9 - . _ ~ + / (RFC 6750)`,
    )
  const [plan = '', perMinute, perDay, ...rest] = value.slice(equals + 1).split(':')
  if (!isPlanName(plan))
    throw new KeyFlagError(
      `"${value}": unknown plan "${plan}"; use one of ${PLAN_NAMES.join(', ')}`,
    )
  if (perMinute === undefined) return [name, plan]
  if (plan !== 'enterprise')
    throw new KeyFlagError(
      `"${value}": only enterprise keys take limits (enterprise:PER_MIN:PER_DAY)`,
    )
  if (rest.length > 0)
    throw new KeyFlagError(`"${value}": expected at most enterprise:PER_MINUTE:PER_DAY`)
  const option: { plan: 'enterprise'; perMinute?: number; perDay?: number } = { plan }
  const minute = readLimit('PER_MINUTE', perMinute, value)
  const day = readLimit('PER_DAY', perDay ?? '', value)
  if (minute !== undefined) option.perMinute = minute
  if (day !== undefined) option.perDay = day
  return [name, option]
}
