import { parseArgs } from 'node:util'
import * as z from 'zod/mini'
import { CliUsageError } from './cli-usage-error.js'
import { type Env, readDuration, readInteger, readText, type Sourced } from './read-setting.js'

/** What `petstore-sandbox verify …` asks for. */
export type VerifyCommand =
  | { kind: 'verify-help' }
  | {
      kind: 'verify'
      target: string
      key: string
      allowWrites: boolean
      maxRequests: number | undefined
      timeoutMs: number | undefined
      maxWaitMs: number | undefined
      maxBodyBytes: number | undefined
      /** `--report json FILE`, `--report junit FILE` (repeatable). */
      reports: { format: 'json' | 'junit'; file: string }[]
      /** `--emit-config FILE`: the config that makes the sandbox answer like the target. */
      emitConfig: string | undefined
      /** `--config FILE`: the sandbox's settings to compare with (default: its defaults). */
      configFile: string | undefined
      /** `--openapi FILE`: the OpenAPI document whose added operations are checked too. */
      openapi: string | undefined
    }

const OPTIONS = {
  target: { type: 'string' },
  key: { type: 'string' },
  'allow-writes': { type: 'boolean' },
  'max-requests': { type: 'string' },
  timeout: { type: 'string' },
  'max-wait': { type: 'string' },
  'max-body': { type: 'string' },
  'emit-config': { type: 'string' },
  config: { type: 'string', short: 'c' },
  openapi: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

/** The variables that keep the target and the key out of the process list. */
export const VERIFY_ENV = {
  target: 'PETSTORE_SANDBOX_VERIFY_TARGET',
  key: 'PETSTORE_SANDBOX_VERIFY_KEY',
} as const

const SCHEMAS = {
  // readText refuses an empty value first, with its own message.
  target: z.string().check(z.minLength(1)),
  key: z.string().check(z.minLength(1)),
  maxRequests: z
    .number()
    .check(
      z.int(),
      z.gte(1, { error: 'must be from 1 to 10000' }),
      z.lte(10_000, { error: 'must be from 1 to 10000' }),
    ),
  timeoutMs: z.number().check(
    z.refine((ms: number) => Number.isInteger(ms) && ms >= 100 && ms <= 300_000, {
      error: 'must be a duration from 100ms to 300s (write 10, 10s or 500ms)',
    }),
  ),
  maxWaitMs: z.number().check(
    z.refine((ms: number) => Number.isInteger(ms) && ms >= 0 && ms <= 3_600_000, {
      error: 'must be a duration from 0 to 3600s (write 65, 65s or 0)',
    }),
  ),
  maxBodyBytes: z
    .number()
    .check(
      z.int(),
      z.gte(1_024, { error: 'must be from 1024 to 104857600 bytes' }),
      z.lte(104_857_600, { error: 'must be from 1024 to 104857600 bytes' }),
    ),
  file: z.string().check(z.minLength(1)),
}

const FORMATS = new Set(['json', 'junit'])

/** Takes `--report FORMAT FILE` pairs out of the arguments (parseArgs reads one value per flag). */
const takeReports = (args: readonly string[]) => {
  const rest: string[] = []
  const reports: { format: 'json' | 'junit'; file: string }[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? ''
    if (arg !== '--report') {
      rest.push(arg)
      continue
    }
    const format = args[i + 1]
    const file = args[i + 2]
    if (format === undefined || !FORMATS.has(format))
      throw new CliUsageError(
        `Failed to read --report: write --report json FILE or --report junit FILE (got ${format === undefined ? 'nothing' : `"${format}"`}).`,
      )
    if (file === undefined || file.startsWith('--'))
      throw new CliUsageError(`Failed to read --report ${format}: name the FILE to write.`)
    reports.push({ format: format as 'json' | 'junit', file })
    i += 2
  }
  return { rest, reports }
}

const given = (flag: string, value: string | undefined, env: Env, variable?: string) => {
  if (value !== undefined) return { text: value, label: `--${flag}` } satisfies Sourced
  const text = variable !== undefined && Object.hasOwn(env, variable) ? env[variable] : undefined
  return text === undefined || text === '' ? undefined : ({ text, label: variable } as Sourced)
}

/**
 * Parses `petstore-sandbox verify`'s arguments (after `verify`). The key may
 * come from PETSTORE_SANDBOX_VERIFY_KEY instead of `--key`, which keeps it out
 * of the process list and shell history. Pure: throws CliUsageError.
 *
 * @example
 * parseVerifyArgs(['--target', 'https://staging.example/v1', '--report', 'json', 'out.json'], { PETSTORE_SANDBOX_VERIFY_KEY: 'k' })
 */
export const parseVerifyArgs = (args: readonly string[], env: Env = {}): VerifyCommand => {
  const { rest, reports } = takeReports(args)
  let values: ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values']
  try {
    ;({ values } = parseArgs({
      args: rest,
      options: OPTIONS,
      strict: true,
      allowPositionals: false,
    }))
  } catch (error) {
    throw new CliUsageError(
      `Failed to read the arguments of verify: ${error instanceof Error ? error.message : String(error)}`,
    )
  }
  if (values.help === true) return { kind: 'verify-help' }
  const target = readText(
    given('target', values.target, env, VERIFY_ENV.target),
    () => SCHEMAS.target,
  )
  if (target === undefined)
    throw new CliUsageError(
      `Failed to read the arguments of verify: --target URL is required (the base URL ending with /v1, or ${VERIFY_ENV.target}).`,
    )
  const key = readText(given('key', values.key, env, VERIFY_ENV.key), () => SCHEMAS.key)
  if (key === undefined)
    throw new CliUsageError(
      `Failed to read the arguments of verify: --key KEY is required (or ${VERIFY_ENV.key}, which keeps it out of the process list).`,
    )
  return {
    kind: 'verify',
    target,
    key,
    allowWrites: values['allow-writes'] === true,
    maxRequests: readInteger(
      given('max-requests', values['max-requests'], env),
      () => SCHEMAS.maxRequests,
    ),
    timeoutMs: readDuration(given('timeout', values.timeout, env), () => SCHEMAS.timeoutMs),
    maxWaitMs: readDuration(given('max-wait', values['max-wait'], env), () => SCHEMAS.maxWaitMs),
    maxBodyBytes: readInteger(
      given('max-body', values['max-body'], env),
      () => SCHEMAS.maxBodyBytes,
    ),
    reports,
    emitConfig: readText(given('emit-config', values['emit-config'], env), () => SCHEMAS.file),
    configFile: readText(given('config', values.config, env), () => SCHEMAS.file),
    openapi: readText(given('openapi', values.openapi, env), () => SCHEMAS.file),
  }
}
