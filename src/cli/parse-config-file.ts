import { dirname, extname, resolve } from 'node:path'
import { z } from 'zod'
import { isOwnHandler, type OwnHandler } from '../handlers/check-own-handlers.js'
import { BUILT_IN_SCENARIOS } from '../scenarios/scenario-registry.js'
import { checkConfigScenario } from './check-config-scenario.js'
import { CliUsageError } from './cli-usage-error.js'
import type { ServeInput } from './serve-settings.js'
import { describeIssues, SETTING_SCHEMAS } from './setting-schemas.js'

const s = SETTING_SCHEMAS

const HANDLER_RULE = 'must be an MSW handler or a function (request) => Response | undefined'

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
  // A .js/.mjs (or TypeScript) file only: functions cannot be written in JSON.
  handlers: z
    .array(z.custom<OwnHandler>(isOwnHandler, { error: HANDLER_RULE }), {
      error: `must be a list: each ${HANDLER_RULE}`,
    })
    .optional(),
  scenarios: z
    .array(z.unknown(), { error: 'must be a list of scenarios made with defineScenario' })
    .superRefine((list, ctx) => {
      const taken = new Set(BUILT_IN_SCENARIOS.map((scenario) => scenario.name))
      list.forEach((value, index) => {
        const problem = checkConfigScenario(value, taken)
        if (problem !== undefined) ctx.addIssue({ code: 'custom', path: [index], message: problem })
      })
    })
    .optional(),
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

/** The settings' names, as the messages list them. */
const SETTING_NAMES = Object.keys(CONFIG_FILE_SCHEMA.shape).filter((name) => name !== '$schema')

/** A start scenario that neither a built-in nor one of the file's own scenarios has. */
const unknownStartScenario = (value: unknown): string | undefined => {
  if (typeof value !== 'object' || value === null) return undefined
  const { scenario, scenarios } = value as { scenario?: unknown; scenarios?: unknown }
  if (typeof scenario !== 'string' || scenario.trim() === '') return undefined
  const own = Array.isArray(scenarios)
    ? scenarios.flatMap((s: unknown) =>
        typeof s === 'object' && s !== null && typeof (s as { name?: unknown }).name === 'string'
          ? [(s as { name: string }).name]
          : [],
      )
    : []
  const names = [...BUILT_IN_SCENARIOS.map((s) => s.name), ...own]
  return names.includes(scenario.trim())
    ? undefined
    : `scenario "${scenario}" is not a scenario (use one of ${names.join(', ')})`
}

/**
 * Checks what a config file holds and turns it into settings. `data` is
 * resolved against the file's folder, so a committed config works from any
 * working directory. Throws CliUsageError naming the file and every bad
 * field at once, the start scenario included (checked against the built-in
 * scenarios and the file's own).
 *
 * @example
 * parseConfigFile({ port: 8080, keys: { team: 'pro' } }, 'sandbox.config.json')
 */
export const parseConfigFile = (value: unknown, file: string): ServeInput => {
  const result = CONFIG_FILE_SCHEMA.safeParse(value)
  const problems = [
    ...(result.success ? [] : [describeIssues(result.error)]),
    ...[unknownStartScenario(value)].filter((p): p is string => p !== undefined),
  ]
  if (extname(file) === '.json' && typeof value === 'object' && value !== null)
    for (const name of ['handlers', 'scenarios'])
      if (Object.hasOwn(value, name))
        problems.push(
          `${name} need a .js or .mjs config file (functions cannot be written in JSON; run "petstore-sandbox init" for one)`,
        )
  if (!result.success || problems.length > 0)
    throw new CliUsageError(
      `Failed to read the config file ${file}: ${problems.join('; ')}. Settings: ${SETTING_NAMES.join(', ')}.`,
    )
  const {
    $schema: _,
    data,
    sessionTtl,
    upstreamTimeout,
    record,
    replay,
    handlers,
    scenarios,
    ...settings
  } = result.data
  const input: ServeInput = { ...settings }
  if (data !== undefined) input.dataFile = resolve(dirname(file), data)
  // Files named in the config file are found beside it, whatever the working directory.
  if (record !== undefined) input.record = resolve(dirname(file), record)
  if (replay !== undefined) input.replay = resolve(dirname(file), replay)
  if (upstreamTimeout !== undefined) input.upstreamTimeoutMs = upstreamTimeout
  if (sessionTtl !== undefined) input.sessionTtlMs = sessionTtl
  if (handlers !== undefined) input.handlers = handlers
  // Checked one by one above: each is a scenario defineScenario accepts.
  if (scenarios !== undefined) input.scenarios = scenarios as ServeInput['scenarios']
  return input
}
