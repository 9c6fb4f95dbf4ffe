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

const SCENARIO_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/

const readScenario = (text: string, value: string): string => {
  if (!SCENARIO_NAME.test(text))
    throw new KeyFlagError(
      `"${value}": "${text}" is not a scenario name (a-z, 0-9 and "-", such as unavailable)`,
    )
  return text
}

/**
 * Reads one `--key` value: `NAME=PLAN`, `NAME=PLAN:SCENARIO` for a key whose
 * requests get that scenario (contract §19), or
 * `NAME=enterprise:PER_MINUTE:PER_DAY[:SCENARIO]` for an enterprise key with
 * its own limits (either limit may be left empty for the plan's default:
 * `big-co=enterprise::2000000`). The scenario's name is checked at start,
 * against the built-in scenarios and the config file's own.
 *
 * @example
 * parseKeyFlag('team-key=pro') // ['team-key', 'pro']
 * parseKeyFlag('app=free:unavailable') // ['app', { plan: 'free', scenario: 'unavailable' }]
 * parseKeyFlag('big-co=enterprise:20000:2000000') // ['big-co', { plan: 'enterprise', perMinute: 20000, perDay: 2000000 }]
 */
export const parseKeyFlag = (value: string): [string, KeyOption] => {
  const equals = value.indexOf('=')
  if (equals < 1)
    throw new KeyFlagError(
      `"${value}" is not NAME=PLAN (such as team-key=pro, app=free:unavailable or big-co=enterprise:20000:2000000)`,
    )
  const name = value.slice(0, equals)
  if (!isValidKeyText(name))
    throw new KeyFlagError(
      `"${name}": a key is 1 to 200 characters of A-Z a-z 0-9 - . _ ~ + / (RFC 6750)`,
    )
  const [plan = '', ...parts] = value.slice(equals + 1).split(':')
  if (!isPlanName(plan))
    throw new KeyFlagError(
      `"${value}": unknown plan "${plan}"; use one of ${PLAN_NAMES.join(', ')}`,
    )
  if (parts.length === 0) return [name, plan]
  // One part after a plan is a scenario, unless it is a number (a limit, for enterprise only).
  if (parts.length === 1 && !/^[0-9]*$/.test(parts[0] ?? ''))
    return [name, { plan, scenario: readScenario(parts[0] ?? '', value) }]
  if (plan !== 'enterprise')
    throw new KeyFlagError(
      `"${value}": expected ${plan} or ${plan}:SCENARIO (only enterprise keys take limits: enterprise:PER_MIN:PER_DAY)`,
    )
  const [perMinute = '', perDay = '', scenario, ...rest] = parts
  if (rest.length > 0)
    throw new KeyFlagError(`"${value}": expected at most enterprise:PER_MINUTE:PER_DAY:SCENARIO`)
  const option: { plan: 'enterprise'; perMinute?: number; perDay?: number; scenario?: string } = {
    plan,
  }
  const minute = readLimit('PER_MINUTE', perMinute, value)
  const day = readLimit('PER_DAY', perDay, value)
  if (minute !== undefined) option.perMinute = minute
  if (day !== undefined) option.perDay = day
  if (scenario !== undefined) option.scenario = readScenario(scenario, value)
  return [name, option]
}
