import { parseArgs } from 'node:util'
import type { KeyOption } from '../auth/key-registry.js'
import { CliUsageError } from './cli-usage-error.js'
import { KeyFlagError, parseKeyFlag } from './parse-key-flag.js'
import {
  type Env,
  envNameOf,
  fromEnv,
  pick,
  readBoolean,
  readDuration,
  readHeaderOrFalse,
  readInteger,
  readList,
  readSize,
  readText,
  type Sourced,
} from './read-setting.js'
import type { ServeInput } from './serve-settings.js'
import { SETTING_SCHEMAS } from './setting-schemas.js'
import { STARTER_CONFIG_FILE } from './starter-config-file.js'

/** What the command line asks for. */
export type CliCommand =
  | { kind: 'help' }
  | { kind: 'version' }
  /** `petstore-sandbox init [FILE]`: write a commented starter config. */
  | { kind: 'init'; file: string }
  | {
      kind: 'serve'
      /** The config file to read (`--config`, else `PETSTORE_SANDBOX_CONFIG`). */
      configFile: string | undefined
      /** What the flags set, over what the environment sets; the config file and defaults come later. */
      settings: ServeInput
    }

export { CliUsageError }

const OPTIONS = {
  config: { type: 'string', short: 'c' },
  port: { type: 'string', short: 'p' },
  host: { type: 'string' },
  seed: { type: 'string' },
  pets: { type: 'string' },
  scenario: { type: 'string' },
  timeline: { type: 'string' },
  key: { type: 'string', multiple: true },
  data: { type: 'string' },
  openapi: { type: 'string' },
  'admin-token': { type: 'string' },
  accounts: { type: 'string' },
  'allowed-host': { type: 'string', multiple: true },
  'base-path': { type: 'string' },
  'session-ttl': { type: 'string' },
  'max-sessions': { type: 'string' },
  'journal-max-entries': { type: 'string' },
  'journal-max-bytes': { type: 'string' },
  store: { type: 'string' },
  'store-prefix': { type: 'string' },
  upstream: { type: 'string' },
  'upstream-key': { type: 'string' },
  'upstream-timeout': { type: 'string' },
  'upstream-max-body': { type: 'string' },
  'strict-upstream': { type: 'boolean' },
  'local-limits': { type: 'boolean' },
  record: { type: 'string' },
  replay: { type: 'string' },
  'replay-fallback': { type: 'string' },
  instance: { type: 'string' },
  'limit-out-of-range': { type: 'string' },
  'unknown-status-filter': { type: 'string' },
  'default-status': { type: 'string' },
  'name-max-length': { type: 'string' },
  'unknown-fields': { type: 'string' },
  pagination: { type: 'string' },
  'total-count-header': { type: 'string' },
  'max-body-bytes': { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const

const readKeys = (
  flags: readonly string[] | undefined,
  env: Env,
): Map<string, KeyOption> | undefined => {
  const envName = envNameOf('key')
  const envKeys = fromEnv(env, envName)
  const sources: Sourced[] = [
    ...(envKeys?.text
      .split(/[\s,]+/)
      .filter((part) => part !== '')
      .map((text) => ({ text, label: envName })) ?? []),
    // After the environment's, so that a flag replaces a key of the same name.
    ...(flags ?? []).map((text) => ({ text, label: '--key' })),
  ]
  if (sources.length === 0) return undefined
  // A Map: a key named `__proto__` is a key like any other (issue 24).
  const keys = new Map<string, KeyOption>()
  for (const source of sources) {
    try {
      const [name, option] = parseKeyFlag(source.text)
      keys.set(name, option)
    } catch (error) {
      if (!(error instanceof KeyFlagError)) throw error
      throw new CliUsageError(`Failed to read ${source.label}: ${error.message}.`)
    }
  }
  return keys
}

const parseInit = (args: readonly string[]): CliCommand => {
  const [file, ...rest] = args
  if (rest.length > 0 || file?.startsWith('-'))
    throw new CliUsageError(
      `Failed to read the arguments of init: ${[file, ...rest].join(' ')}. Use "petstore-sandbox init [FILE]".`,
    )
  return { kind: 'init', file: file ?? STARTER_CONFIG_FILE }
}

// node:util's parseArgs takes "-1" after "--port" for an option, not a value;
// "--port -1" must read as "--port=-1", so that both get the same message.
const VALUE_FLAGS = new Set(
  Object.entries(OPTIONS).flatMap(([name, option]) =>
    option.type === 'string'
      ? [`--${name}`, ...('short' in option ? [`-${option.short}`] : [])]
      : [],
  ),
)
const joinNegativeValues = (args: readonly string[]): string[] => {
  const joined: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? ''
    const next = args[i + 1]
    if (VALUE_FLAGS.has(arg) && next !== undefined && /^-[0-9]/.test(next)) {
      joined.push(`${arg}=${next}`)
      i++
    } else joined.push(arg)
  }
  return joined
}

/**
 * Parses the CLI's arguments (without `node` and the script) and the
 * environment: `PETSTORE_SANDBOX_<FLAG>` for every flag, and `PORT`. A flag
 * wins over its environment variable. Pure: throws CliUsageError for a bad
 * flag or value.
 *
 * @example
 * parseCliArgs(['--port', '0', '--key', 'team=pro'], { PETSTORE_SANDBOX_SEED: '7' })
 * // { kind: 'serve', configFile: undefined, settings: { port: 0, seed: 7, keys: Map { 'team' => 'pro' } } }
 */
export const parseCliArgs = (args: readonly string[], env: Env = {}): CliCommand => {
  if (args[0] === 'init') return parseInit(args.slice(1))
  let values: ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values']
  try {
    ;({ values } = parseArgs({
      args: joinNegativeValues(args),
      options: OPTIONS,
      strict: true,
      allowPositionals: false,
    }))
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new CliUsageError(`Failed to read the arguments: ${reason}`)
  }
  if (values.help === true) return { kind: 'help' }
  if (values.version === true) return { kind: 'version' }
  const s = SETTING_SCHEMAS
  const settings: ServeInput = {
    port: readInteger(pick('port', values.port, env, ['PORT']), () => s.port),
    host: readText(pick('host', values.host, env), () => s.host),
    seed: readInteger(pick('seed', values.seed, env), () => s.seed),
    pets: readInteger(pick('pets', values.pets, env), () => s.pets),
    scenario: readText(pick('scenario', values.scenario, env), () => s.scenario),
    timelineFile: readText(pick('timeline', values.timeline, env), () => s.data),
    dataFile: readText(pick('data', values.data, env), () => s.data),
    // Operations from an OpenAPI document (contract §20): a YAML or JSON file.
    openapi: readText(pick('openapi', values.openapi, env), () => s.data),
    adminToken: readText(pick('admin-token', values['admin-token'], env), () => s.adminToken),
    accounts: readText(pick('accounts', values.accounts, env), () => s.accounts),
    allowedHosts: readList('allowed-host', values['allowed-host'], env, () => s.allowedHost),
    basePath: readText(pick('base-path', values['base-path'], env), () => s.basePath),
    sessionTtlMs: readDuration(
      pick('session-ttl', values['session-ttl'], env),
      () => s.sessionTtlMs,
    ),
    maxSessions: readInteger(
      pick('max-sessions', values['max-sessions'], env),
      () => s.maxSessions,
    ),
    journalMaxEntries: readInteger(
      pick('journal-max-entries', values['journal-max-entries'], env),
      () => s.journalMaxEntries,
    ),
    journalMaxBytes: readInteger(
      pick('journal-max-bytes', values['journal-max-bytes'], env),
      () => s.journalMaxBytes,
    ),
    store: readText(pick('store', values.store, env), () => s.store),
    storePrefix: readText(pick('store-prefix', values['store-prefix'], env), () => s.storePrefix),
    instance: readText(pick('instance', values.instance, env), () => s.instance),
    quiet: readBoolean(values.quiet === true, env, envNameOf('quiet')),
    keys: readKeys(values.key, env),
    // Upstream mode (contract §17, docs/upstream.md).
    upstream: readText(pick('upstream', values.upstream, env), () => s.upstream),
    upstreamKey: readText(pick('upstream-key', values['upstream-key'], env), () => s.upstreamKey),
    upstreamTimeoutMs: readDuration(
      pick('upstream-timeout', values['upstream-timeout'], env),
      () => s.upstreamTimeoutMs,
    ),
    upstreamMaxBodyBytes: readSize(
      pick('upstream-max-body', values['upstream-max-body'], env),
      () => s.upstreamMaxBodyBytes,
    ),
    strictUpstream: readBoolean(
      values['strict-upstream'] === true,
      env,
      envNameOf('strict-upstream'),
    ),
    localLimits: readBoolean(values['local-limits'] === true, env, envNameOf('local-limits')),
    record: readText(pick('record', values.record, env), () => s.data),
    replay: readText(pick('replay', values.replay, env), () => s.data),
    replayFallback: readText(
      pick('replay-fallback', values['replay-fallback'], env),
      () => s.replayFallback,
    ),
    limitOutOfRange: readText(
      pick('limit-out-of-range', values['limit-out-of-range'], env),
      () => s.limitOutOfRange,
    ),
    unknownStatusFilter: readText(
      pick('unknown-status-filter', values['unknown-status-filter'], env),
      () => s.unknownStatusFilter,
    ),
    defaultStatus: readText(
      pick('default-status', values['default-status'], env),
      () => s.defaultStatus,
    ),
    nameMaxLength: readInteger(
      pick('name-max-length', values['name-max-length'], env),
      () => s.nameMaxLength,
    ),
    unknownFields: readText(
      pick('unknown-fields', values['unknown-fields'], env),
      () => s.unknownFields,
    ),
    pagination: readText(pick('pagination', values.pagination, env), () => s.pagination),
    totalCountHeader: readHeaderOrFalse(
      pick('total-count-header', values['total-count-header'], env),
      () => s.totalCountHeader,
    ),
    maxBodyBytes: readInteger(
      pick('max-body-bytes', values['max-body-bytes'], env),
      () => s.maxBodyBytes,
    ),
  }
  for (const name of Object.keys(settings) as (keyof ServeInput)[])
    if (settings[name] === undefined) delete settings[name]
  return {
    kind: 'serve',
    configFile: readText(pick('config', values.config, env), () => s.data),
    settings,
  }
}
