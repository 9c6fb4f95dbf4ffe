import { safeParse } from 'zod/mini'
import type * as core from 'zod/v4/core'
import { CliUsageError } from './cli-usage-error.js'
import { parseDuration, parseSize } from './setting-schemas.js'

// How one flag's value is read, written once for the server's flags and verify's:
// the flag, else its PETSTORE_SANDBOX_* variable, checked against the setting's schema.

/** The environment variable of a flag: `--base-path` is `PETSTORE_SANDBOX_BASE_PATH`. */
export const envNameOf = (flag: string): string =>
  `PETSTORE_SANDBOX_${flag.toUpperCase().replaceAll('-', '_')}`

export type Env = Readonly<Record<string, string | undefined>>

/** A value and where it came from, for messages. */
export interface Sourced {
  text: string
  label: string
}

// An empty environment variable counts as unset, as shells and CI files often leave them.
export const fromEnv = (env: Env, name: string): Sourced | undefined => {
  // An own key only: the names are ours, but the environment is a plain record (issue 24).
  const text = Object.hasOwn(env, name) ? env[name] : undefined
  return text === undefined || text === '' ? undefined : { text, label: name }
}

export const pick = (
  flag: string,
  value: string | undefined,
  env: Env,
  extraEnv: readonly string[] = [],
): Sourced | undefined => {
  if (value !== undefined) return { text: value, label: `--${flag}` }
  for (const name of [envNameOf(flag), ...extraEnv]) {
    const found = fromEnv(env, name)
    if (found !== undefined) return found
  }
  return undefined
}

/**
 * A setting's schema, asked for only when the setting has a value: the CLI's
 * schemas are made when first read (setting-schemas.ts), so a start makes those
 * of the settings it was given and no others.
 */
export type SchemaOf<T> = () => core.$ZodType<T>

export const check = <T>(schema: SchemaOf<T>, value: unknown, source: Sourced): T => {
  const result = safeParse(schema(), value)
  if (result.success) return result.data
  const reason = result.error.issues[0]?.message ?? 'is invalid'
  throw new CliUsageError(`Failed to read ${source.label}: "${source.text}" ${reason}.`)
}

export const readInteger = (source: Sourced | undefined, schema: SchemaOf<number>) => {
  if (source === undefined) return undefined
  if (!/^-?[0-9]+$/.test(source.text))
    throw new CliUsageError(
      `Failed to read ${source.label}: "${source.text}" is not a whole number.`,
    )
  return check(schema, Number(source.text), source)
}

export const readText = <T extends string>(source: Sourced | undefined, schema: SchemaOf<T>) => {
  if (source === undefined) return undefined
  if (source.text.trim() === '')
    throw new CliUsageError(`Failed to read ${source.label}: the value is empty.`)
  return check(schema, source.text, source)
}

// `--total-count-header false` (or `none`) sends no total-count header.
export const readHeaderOrFalse = (
  source: Sourced | undefined,
  schema: SchemaOf<string | false>,
) => {
  if (source === undefined) return undefined
  return check(schema, /^(false|none)$/i.test(source.text.trim()) ? false : source.text, source)
}

export const readDuration = (source: Sourced | undefined, schema: SchemaOf<number>) =>
  source === undefined ? undefined : check(schema, parseDuration(source.text), source)

export const readSize = (source: Sourced | undefined, schema: SchemaOf<number>) =>
  source === undefined ? undefined : check(schema, parseSize(source.text), source)

// Repeatable: the flags, else the environment variable's list (commas or spaces).
export const readList = (
  flag: string,
  values: readonly string[] | undefined,
  env: Env,
  schema: SchemaOf<string>,
): string[] | undefined => {
  const envName = envNameOf(flag)
  const fromFlags = values?.map((text) => ({ text, label: `--${flag}` }))
  const fromVariable = fromEnv(env, envName)
    ?.text.split(/[\s,]+/)
    .filter((part) => part !== '')
    .map((text) => ({ text, label: envName }))
  const sources = fromFlags ?? fromVariable
  return sources?.map((source) => check(schema, source.text, source))
}

export const readBoolean = (flagSet: boolean, env: Env, name: string): boolean | undefined => {
  if (flagSet) return true
  const source = fromEnv(env, name)
  if (source === undefined) return undefined
  if (/^(1|true|yes|on)$/i.test(source.text)) return true
  if (/^(0|false|no|off)$/i.test(source.text)) return false
  throw new CliUsageError(`Failed to read ${name}: "${source.text}" is not true or false (1 or 0).`)
}
