import { parseArgs } from 'node:util'

/** What the command line asks for. */
export type CliCommand =
  | { kind: 'help' }
  | { kind: 'version' }
  | {
      kind: 'serve'
      port: number
      host: string
      seed: number | undefined
      pets: number | undefined
      scenario: string | undefined
      dataFile: string | undefined
      adminToken: string | undefined
      /** `--allowed-host`, repeatable; undefined when not given. */
      allowedHosts?: string[] | undefined
      basePath: string | undefined
      /** Idle time before a session is dropped, in ms. */
      sessionTtlMs: number | undefined
      maxSessions: number | undefined
      /** A Redis URL (issue 13): state shared by every instance started with it. */
      store: string | undefined
      storePrefix: string | undefined
      quiet: boolean
    }

/** A bad flag or value: the CLI prints the message and exits with code 2. */
export class CliUsageError extends Error {
  override name = 'CliUsageError'
}

const OPTIONS = {
  port: { type: 'string', short: 'p' },
  host: { type: 'string' },
  seed: { type: 'string' },
  pets: { type: 'string' },
  scenario: { type: 'string' },
  data: { type: 'string' },
  'admin-token': { type: 'string' },
  'allowed-host': { type: 'string', multiple: true },
  'base-path': { type: 'string' },
  'session-ttl': { type: 'string' },
  'max-sessions': { type: 'string' },
  store: { type: 'string' },
  'store-prefix': { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const

const integer = (flag: string, text: string, min: number, max: number): number => {
  if (!/^-?[0-9]+$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new CliUsageError(`Failed to read --${flag}: "${text}" is not a whole number.`)
  }
  const value = Number(text)
  if (value < min || value > max) {
    throw new CliUsageError(`Failed to read --${flag}: ${value} is not from ${min} to ${max}.`)
  }
  return value
}

const DURATION_UNITS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 } as const

/** `90`, `90s`, `30m`, `2h` or `1500ms` (a bare number is seconds), from 1 s to 30 days. */
const duration = (flag: string, text: string): number => {
  const match = /^([0-9]{1,10})(ms|s|m|h)?$/.exec(text.trim())
  const unit = (match?.[2] ?? 's') as keyof typeof DURATION_UNITS
  const ms = match === null ? Number.NaN : Number(match[1]) * DURATION_UNITS[unit]
  if (!(ms >= 1_000 && ms <= 30 * 86_400_000)) {
    throw new CliUsageError(
      `Failed to read --${flag}: "${text}" is not a duration from 1s to 720h (write 90, 90s, 30m or 2h).`,
    )
  }
  return ms
}

const nonEmpty = (flag: string, text: string | undefined): string | undefined => {
  if (text !== undefined && text.trim() === '')
    throw new CliUsageError(`Failed to read --${flag}: the value is empty.`)
  return text
}

/**
 * Parses the CLI's arguments (without `node` and the script) and the
 * environment (`PORT`). Pure: throws CliUsageError for a bad flag or value.
 *
 * @example
 * parseCliArgs(['--port', '0', '--quiet'], {}) // { kind: 'serve', port: 0, quiet: true, ... }
 */
export const parseCliArgs = (
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): CliCommand => {
  let values: ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values']
  try {
    ;({ values } = parseArgs({
      args: [...args],
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
  const portText = values.port ?? (env.PORT === '' ? undefined : env.PORT)
  // The environment keeps the token out of the process list; the flag wins when both are set.
  const tokenFrom =
    values['admin-token'] === undefined && (env.PETSTORE_SANDBOX_ADMIN_TOKEN ?? '') !== ''
      ? 'admin-token (PETSTORE_SANDBOX_ADMIN_TOKEN)'
      : 'admin-token'
  const adminToken = nonEmpty(
    tokenFrom,
    values['admin-token'] ?? (env.PETSTORE_SANDBOX_ADMIN_TOKEN || undefined),
  )
  if (adminToken !== undefined && !/^[A-Za-z0-9\-._~+/]+=*$/.test(adminToken)) {
    throw new CliUsageError(
      `Failed to read --${tokenFrom}: use letters, digits and - . _ ~ + / only (it is sent as a bearer token).`,
    )
  }
  const allowedHosts = values['allowed-host']
  for (const name of allowedHosts ?? []) {
    if (!/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)$/.test(name)) {
      throw new CliUsageError(
        `Failed to read --allowed-host: "${name}" is not a host name or address (no scheme, port or path).`,
      )
    }
  }
  const basePath = nonEmpty('base-path', values['base-path'])
  if (basePath !== undefined && !/^(\/[A-Za-z0-9._~-]+)+\/?$/.test(basePath)) {
    throw new CliUsageError(`Failed to read --base-path: "${basePath}" is not a path such as /v1.`)
  }
  // Issue 13: --store (env PETSTORE_SANDBOX_STORE), a Redis URL.
  const store =
    nonEmpty('store', values.store) ??
    (env.PETSTORE_SANDBOX_STORE === '' ? undefined : env.PETSTORE_SANDBOX_STORE)
  if (store !== undefined && !/^rediss?:\/\/[^/?#\s]+(\/[0-9]{1,2})?\/?$/.test(store)) {
    throw new CliUsageError(
      `Failed to read --store${values.store === undefined ? ' (PETSTORE_SANDBOX_STORE)' : ''}: "${store}" is not a Redis URL such as redis://127.0.0.1:6379/0.`,
    )
  }
  const storePrefix = nonEmpty('store-prefix', values['store-prefix'])
  if (storePrefix !== undefined && store === undefined)
    throw new CliUsageError('Failed to read --store-prefix: it needs --store.')
  if (store !== undefined && values.data !== undefined)
    throw new CliUsageError(
      'Failed to read --data: a data file and --store cannot be combined (Redis keeps the pets).',
    )
  return {
    kind: 'serve',
    port:
      portText === undefined
        ? 4010
        : integer(values.port === undefined ? 'port (PORT)' : 'port', portText, 0, 65_535),
    host: nonEmpty('host', values.host) ?? '127.0.0.1',
    seed:
      values.seed === undefined
        ? undefined
        : integer('seed', values.seed, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
    pets: values.pets === undefined ? undefined : integer('pets', values.pets, 0, 1_000_000),
    scenario: nonEmpty('scenario', values.scenario),
    dataFile: nonEmpty('data', values.data),
    adminToken,
    allowedHosts,
    basePath,
    sessionTtlMs:
      values['session-ttl'] === undefined
        ? undefined
        : duration('session-ttl', values['session-ttl']),
    maxSessions:
      values['max-sessions'] === undefined
        ? undefined
        : integer('max-sessions', values['max-sessions'], 1, 1_000_000),
    store,
    storePrefix,
    quiet: values.quiet === true,
  }
}
