import { dirname, extname, resolve } from 'node:path'
import * as z from 'zod/mini'
import { isOwnHandler, type OwnHandler } from '../handlers/check-own-handlers.js'
import { BUILT_IN_SCENARIOS } from '../scenarios/scenario-registry.js'
import { checkConfigScenario } from './check-config-scenario.js'
import { CliUsageError } from './cli-usage-error.js'
import type { ServeInput } from './serve-settings.js'
import { describeIssues, SETTING_SCHEMAS } from './setting-schemas.js'

const HANDLER_RULE = 'must be an MSW handler or a function (request) => Response | undefined'

/**
 * The config file: every flag (camelCase), plus settings only a file can hold.
 * Made when a config file is read, not at start (issue 20).
 */
const makeConfigFileSchema = (s = SETTING_SCHEMAS) =>
  z.strictObject({
    // Editors use it for completion; the sandbox ignores it.
    $schema: z.optional(z.string()),
    port: z.optional(s.port),
    host: z.optional(s.host),
    seed: z.optional(s.seed),
    pets: z.optional(s.pets),
    scenario: z.optional(s.scenario),
    timeline: z.optional(s.timeline),
    keys: z.optional(s.keys),
    data: z.optional(s.data),
    adminToken: z.optional(s.adminToken),
    accounts: z.optional(s.accounts),
    allowedHosts: z.optional(z.array(s.allowedHost, { error: 'must be a list of host names' })),
    basePath: z.optional(s.basePath),
    quiet: z.optional(s.quiet),
    sessionTtl: z.optional(s.sessionTtl),
    maxSessions: z.optional(s.maxSessions),
    store: z.optional(s.store),
    storePrefix: z.optional(s.storePrefix),
    instance: z.optional(s.instance),
    rateLimit: z.optional(s.rateLimit),
    flaky: z.optional(s.flaky),
    journalSize: z.optional(s.journalSize),
    journalMaxEntries: z.optional(s.journalMaxEntries),
    journalMaxBytes: z.optional(s.journalMaxBytes),
    // A .js/.mjs (or TypeScript) file only: functions cannot be written in JSON.
    handlers: z.optional(
      z.array(z.custom<OwnHandler>(isOwnHandler, { error: HANDLER_RULE }), {
        error: `must be a list: each ${HANDLER_RULE}`,
      }),
    ),
    scenarios: z.optional(
      z.array(z.unknown(), { error: 'must be a list of scenarios made with defineScenario' }).check(
        z.superRefine((list, ctx) => {
          const taken = new Set(BUILT_IN_SCENARIOS.map((scenario) => scenario.name))
          list.forEach((value, index) => {
            const problem = checkConfigScenario(value, taken)
            if (problem !== undefined)
              ctx.addIssue({ code: 'custom', path: [index], message: problem })
          })
        }),
      ),
    ),
    // A file beside the config file, or the document itself.
    openapi: z.optional(
      z.union([s.data, z.custom<Record<string, unknown>>(isDocument)], {
        error:
          'must be the path of an OpenAPI document (YAML or JSON) or the document as an object',
      }),
    ),
    upstream: z.optional(s.upstream),
    upstreamKey: z.optional(s.upstreamKey),
    upstreamTimeout: z.optional(s.upstreamTimeout),
    upstreamMaxBody: z.optional(s.upstreamMaxBody),
    strictUpstream: z.optional(s.flag),
    localLimits: z.optional(s.flag),
    record: z.optional(s.data),
    replay: z.optional(s.data),
    replayFallback: z.optional(s.replayFallback),
    limitOutOfRange: z.optional(s.limitOutOfRange),
    unknownStatusFilter: z.optional(s.unknownStatusFilter),
    defaultStatus: z.optional(s.defaultStatus),
    nameMaxLength: z.optional(s.nameMaxLength),
    unknownFields: z.optional(s.unknownFields),
    pagination: z.optional(s.pagination),
    totalCountHeader: z.optional(s.totalCountHeader),
    errorCodes: z.optional(s.errorCodes),
    maxBodyBytes: z.optional(s.maxBodyBytes),
  })
/** An inline document: the object itself is passed on (a key named `__proto__` stays a key). */
const isDocument = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

let configFileSchema: ReturnType<typeof makeConfigFileSchema> | undefined

/** The settings' names, as the messages list them. */
const settingNames = (schema: ReturnType<typeof makeConfigFileSchema>): string[] =>
  Object.keys(schema.shape).filter((name) => name !== '$schema')

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
  configFileSchema ??= makeConfigFileSchema()
  const result = configFileSchema.safeParse(value)
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
      `Failed to read the config file ${file}: ${problems.join('; ')}. Settings: ${settingNames(configFileSchema).join(', ')}.`,
    )
  const {
    $schema: _,
    data,
    openapi,
    sessionTtl,
    upstreamTimeout,
    upstreamMaxBody,
    record,
    replay,
    handlers,
    scenarios,
    ...settings
  } = result.data
  const input: ServeInput = { ...settings }
  if (data !== undefined) input.dataFile = resolve(dirname(file), data)
  // Files named in the config file are found beside it, whatever the working directory.
  if (openapi !== undefined)
    input.openapi = typeof openapi === 'string' ? resolve(dirname(file), openapi) : openapi
  if (record !== undefined) input.record = resolve(dirname(file), record)
  if (replay !== undefined) input.replay = resolve(dirname(file), replay)
  if (upstreamTimeout !== undefined) input.upstreamTimeoutMs = upstreamTimeout
  if (upstreamMaxBody !== undefined) input.upstreamMaxBodyBytes = upstreamMaxBody
  if (sessionTtl !== undefined) input.sessionTtlMs = sessionTtl
  if (handlers !== undefined) input.handlers = handlers
  // Checked one by one above: each is a scenario defineScenario accepts.
  if (scenarios !== undefined) input.scenarios = scenarios as ServeInput['scenarios']
  return input
}
