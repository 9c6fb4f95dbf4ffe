import { dirname, resolve } from 'node:path'
import { z } from 'zod'
import { CliUsageError } from './cli-usage-error.js'
import type { ServeInput } from './serve-settings.js'
import { describeIssues, SETTING_SCHEMAS } from './setting-schemas.js'

const s = SETTING_SCHEMAS

/** The config file: every flag (camelCase), plus settings only a file can hold. */
export const CONFIG_FILE_SCHEMA = z.strictObject({
  // Editors use it for completion; the sandbox ignores it.
  $schema: z.string().optional(),
  port: s.port.optional(),
  host: s.host.optional(),
  seed: s.seed.optional(),
  pets: s.pets.optional(),
  scenario: s.scenario.optional(),
  keys: z.optional(s.keys),
  data: s.data.optional(),
  adminToken: s.adminToken.optional(),
  allowedHosts: z.array(s.allowedHost, { error: 'must be a list of host names' }).optional(),
  basePath: s.basePath.optional(),
  quiet: s.quiet.optional(),
  sessionTtl: s.sessionTtl.optional(),
  maxSessions: s.maxSessions.optional(),
  store: s.store.optional(),
  storePrefix: s.storePrefix.optional(),
  instance: s.instance.optional(),
  rateLimit: s.rateLimit.optional(),
  flaky: s.flaky.optional(),
  journalSize: s.journalSize.optional(),
  upstream: s.upstream.optional(),
  upstreamKey: s.upstreamKey.optional(),
  upstreamTimeout: s.upstreamTimeout.optional(),
  strictUpstream: s.flag.optional(),
  localLimits: s.flag.optional(),
  record: s.data.optional(),
  replay: s.data.optional(),
  replayFallback: s.replayFallback.optional(),
  limitOutOfRange: s.limitOutOfRange.optional(),
  unknownStatusFilter: s.unknownStatusFilter.optional(),
  defaultStatus: s.defaultStatus.optional(),
  nameMaxLength: s.nameMaxLength.optional(),
  unknownFields: s.unknownFields.optional(),
  pagination: s.pagination.optional(),
  totalCountHeader: s.totalCountHeader.optional(),
  errorCodes: s.errorCodes.optional(),
  maxBodyBytes: s.maxBodyBytes.optional(),
})

/**
 * Checks what a config file holds and turns it into settings. `data` is
 * resolved against the file's folder, so a committed config works from any
 * working directory. Throws CliUsageError naming the file and every bad field.
 *
 * @example
 * parseConfigFile({ port: 8080, keys: { team: 'pro' } }, 'sandbox.config.json')
 */
export const parseConfigFile = (value: unknown, file: string): ServeInput => {
  const result = CONFIG_FILE_SCHEMA.safeParse(value)
  if (!result.success) {
    const known = Object.keys(CONFIG_FILE_SCHEMA.shape)
      .filter((name) => name !== '$schema')
      .join(', ')
    throw new CliUsageError(
      `Failed to read the config file ${file}: ${describeIssues(result.error)}. Settings: ${known}.`,
    )
  }
  const { $schema: _, data, sessionTtl, upstreamTimeout, record, replay, ...settings } = result.data
  const input: ServeInput = { ...settings }
  if (data !== undefined) input.dataFile = resolve(dirname(file), data)
  // Files named in the config file are found beside it, whatever the working directory.
  if (record !== undefined) input.record = resolve(dirname(file), record)
  if (replay !== undefined) input.replay = resolve(dirname(file), replay)
  if (upstreamTimeout !== undefined) input.upstreamTimeoutMs = upstreamTimeout
  if (sessionTtl !== undefined) input.sessionTtlMs = sessionTtl
  return input
}
