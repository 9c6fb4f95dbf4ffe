import {
  DEMO_KEYS,
  isPlanName,
  PLAN_LIMITS,
  type PlanLimits,
  type PlanName,
} from '../contract/plans.js'
import { isValidKeyText } from './parse-authorization.js'

/** An API key and what it may do. */
export interface ApiKeyInfo {
  key: string
  plan: PlanName
  /** Per-key limits; for enterprise keys these may differ from the plan's defaults. */
  limits: PlanLimits
  /**
   * Where the key came from: built in, the sandbox options, created at run
   * time, or an account's (contract §22: then `key` is the key's id, never the key).
   */
  source: 'demo' | 'options' | 'runtime' | 'account'
  /** The session a run-time key belongs to: its requests always land there. */
  session?: string | undefined
  /**
   * The scenario the key's requests get unless they name one (`__scenario`,
   * `X-Sandbox-Scenario`); it beats the session's sticky scenario.
   */
  scenario?: string | undefined
}

/**
 * A key in the `keys` option: a plan name, or a plan with custom (enterprise)
 * limits and the scenario its requests get.
 */
export type KeyOption =
  | PlanName
  | { plan: PlanName; perMinute?: number; perDay?: number; scenario?: string }

export interface CreateKeyOptions {
  plan: PlanName
  /** Choose the key text; default a random `sk_sandbox_…` key. */
  key?: string
  perMinute?: number
  perDay?: number
  /** The scenario the key's requests get unless they name one. */
  scenario?: string | undefined
}

/** The prefix of the scenario keys: `sandbox-scenario-NAME` selects scenario NAME on the free plan. */
export const SCENARIO_KEY_PREFIX = 'sandbox-scenario-'

/** Whether a scenario may be carried by a key: the registry's answer, injected (auth sits below scenarios). */
export type KnowsScenario = (name: string) => boolean

/**
 * The keys one session sees: the sandbox's demo and option keys (less those
 * revoked in this session) and the run-time keys created in it.
 */
export interface KeyRegistry {
  lookup(key: string): ApiKeyInfo | undefined
  create(options: CreateKeyOptions): ApiKeyInfo
  /** Revokes any key, demo keys included, in this session until its next reset. Returns false for an unknown key. */
  revoke(key: string): boolean
  list(): ApiKeyInfo[]
  /** Back to the demo keys and the option keys; the run-time keys are gone. */
  reset(): void
}

/** Where a registry sits among a sandbox's sessions. */
export interface KeyScope {
  /** The session of this registry (default `default`). */
  session?: string
  /** Run-time key → its session, shared by every session of a sandbox: a key exists once. */
  index?: Map<string, string>
}

export class KeyOptionError extends TypeError {}

/** A key whose text is taken already (in this session or bound to another). */
export class KeyExistsError extends KeyOptionError {}

const randomKey = (): string => {
  const bytes = new Uint8Array(16)
  globalThis.crypto.getRandomValues(bytes)
  return `sk_sandbox_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`
}

const checkLimit = (name: string, value: number | undefined): void => {
  if (value !== undefined && (!Number.isInteger(value) || value < 1)) {
    throw new KeyOptionError(
      `Failed to configure a key: ${name} must be a whole number >= 1, got ${String(value)}.`,
    )
  }
}

const makeInfo = (
  key: string,
  option: CreateKeyOptions,
  source: ApiKeyInfo['source'],
  knows?: KnowsScenario,
): ApiKeyInfo => {
  // A generated key is not named in messages: it means nothing to the caller yet.
  const which = option.key === undefined && source === 'runtime' ? 'a new key' : `key "${key}"`
  if (!isPlanName(option.plan)) {
    throw new KeyOptionError(
      `Failed to configure ${which}: unknown plan "${String(option.plan)}". Use one of free, pro, business, enterprise.`,
    )
  }
  if (!isValidKeyText(key)) {
    throw new KeyOptionError(
      `Failed to configure ${which}: a key is 1 to 200 characters of A-Z a-z 0-9 - . _ ~ + / (RFC 6750).`,
    )
  }
  if (
    option.plan !== 'enterprise' &&
    (option.perMinute !== undefined || option.perDay !== undefined)
  ) {
    throw new KeyOptionError(
      `Failed to configure ${which}: only enterprise keys have custom limits; the ${option.plan} plan's are fixed. Drop perMinute/perDay or use plan "enterprise".`,
    )
  }
  checkLimit('perMinute', option.perMinute)
  checkLimit('perDay', option.perDay)
  if (
    option.scenario !== undefined &&
    (typeof option.scenario !== 'string' || !(knows?.(option.scenario) ?? true))
  ) {
    throw new KeyOptionError(
      `Failed to configure ${which}: scenario "${String(option.scenario)}" is unknown. Use a registered scenario's name.`,
    )
  }
  const plan = option.plan
  const custom = plan === 'enterprise'
  return {
    key,
    plan,
    limits: {
      perMinute: (custom ? option.perMinute : undefined) ?? PLAN_LIMITS[plan].perMinute,
      perDay: (custom ? option.perDay : undefined) ?? PLAN_LIMITS[plan].perDay,
    },
    source,
    ...(option.scenario === undefined ? {} : { scenario: option.scenario }),
  }
}

/**
 * The demo keys and the option keys, plus one scenario key for every
 * scenario the registry knows, made on first use: `sandbox-scenario-NAME` is
 * a free-plan key whose requests get scenario NAME (contract §19). Scenario
 * keys are not iterated (`values()` lists the demo and option keys only):
 * there is one per scenario, and listings say so once instead.
 */
export class BaseKeys extends Map<string, ApiKeyInfo> {
  readonly #scenarioKeys = new Map<string, ApiKeyInfo>()
  constructor(readonly knowsScenario: KnowsScenario = () => false) {
    super()
  }
  override get(key: string): ApiKeyInfo | undefined {
    return super.get(key) ?? this.#scenarioKey(key)
  }
  override has(key: string): boolean {
    return super.has(key) || this.#scenarioKey(key) !== undefined
  }
  #scenarioKey(key: string): ApiKeyInfo | undefined {
    if (!key.startsWith(SCENARIO_KEY_PREFIX)) return undefined
    const name = key.slice(SCENARIO_KEY_PREFIX.length)
    // Asked each time: a scenario registered later gets its key, by the registry's word.
    if (!this.knowsScenario(name)) return undefined
    let info = this.#scenarioKeys.get(name)
    if (info === undefined) {
      info = { ...makeInfo(key, { plan: 'free' }, 'demo'), scenario: name }
      this.#scenarioKeys.set(name, info)
    }
    return info
  }
}

/**
 * The demo keys, the keys given in options, and keys created at run time.
 *
 * @example
 * const keys = createKeyRegistry({ 'my-key': 'pro' })
 * keys.create({ plan: 'enterprise', perMinute: 10_000 })
 */
export const createKeyRegistry = (
  configured: Readonly<Record<string, KeyOption>> | ReadonlyMap<string, ApiKeyInfo> = {},
  scope: KeyScope = {},
): KeyRegistry => {
  const base: ReadonlyMap<string, ApiKeyInfo> =
    configured instanceof Map
      ? configured
      : createBaseKeys(configured as Readonly<Record<string, KeyOption>>)
  const session = scope.session ?? 'default'
  const index = scope.index ?? new Map<string, string>()
  const runtime = new Map<string, ApiKeyInfo>()
  const revoked = new Set<string>()
  const lookup = (key: string): ApiKeyInfo | undefined =>
    runtime.get(key) ?? (revoked.has(key) ? undefined : base.get(key))
  return {
    lookup,
    create(options) {
      const key = options.key ?? randomKey()
      // A base key's text never becomes a run-time key, even where it is revoked:
      // bound to one session, it would draw every caller of that key there.
      if (lookup(key) !== undefined || base.has(key) || index.has(key))
        throw new KeyExistsError(
          `Failed to create key "${key}": it exists already. Revoke it first or choose another.`,
        )
      const knows = base instanceof BaseKeys ? base.knowsScenario : undefined
      const info = { ...makeInfo(key, options, 'runtime', knows), session }
      runtime.set(key, info)
      index.set(key, session)
      return info
    },
    revoke(key) {
      if (runtime.delete(key)) {
        index.delete(key)
        return true
      }
      if (!base.has(key) || revoked.has(key)) return false
      revoked.add(key)
      return true
    },
    list: () => [...[...base.values()].filter((k) => !revoked.has(k.key)), ...runtime.values()],
    reset() {
      for (const key of runtime.keys()) index.delete(key)
      runtime.clear()
      revoked.clear()
    },
  }
}

/**
 * The demo keys and the keys of the `keys` option, shared by every session.
 *
 * With `knowsScenario` (the scenario registry's word), the scenario keys
 * `sandbox-scenario-NAME` are valid too, and option keys may carry a scenario.
 *
 * @example
 * createBaseKeys({ 'my-key': 'pro' }).get('my-key')?.plan // 'pro'
 */
export const createBaseKeys = (
  configured: Readonly<Record<string, KeyOption>> = {},
  knowsScenario?: KnowsScenario,
): ReadonlyMap<string, ApiKeyInfo> => {
  const base = new BaseKeys(knowsScenario)
  for (const [key, plan] of Object.entries(DEMO_KEYS))
    base.set(key, makeInfo(key, { plan }, 'demo'))
  for (const [key, option] of Object.entries(configured)) {
    const opts = typeof option === 'string' ? { plan: option } : option
    base.set(key, makeInfo(key, opts, 'options', knowsScenario))
  }
  return base
}
