import type { KeyOption } from '../auth/key-registry.js'
import { FIDELITY_SETTING_NAMES, type FidelitySettings } from '../contract/fidelity.js'
import type { OwnHandler } from '../handlers/check-own-handlers.js'
import type { TimelineSetting } from '../sandbox/resolve-sticky.js'
import type { Scenario } from '../scenarios/define-scenario.js'
import { CliUsageError } from './cli-usage-error.js'

/**
 * What the server is started with, once flags, environment, config file and
 * defaults are merged. The fidelity settings (contract §16) are set only when
 * a source sets them; the sandbox's defaults apply to the rest.
 */
export interface ServeSettings extends Partial<FidelitySettings> {
  port: number
  host: string
  seed: number | undefined
  pets: number | undefined
  scenario: string | undefined
  /** The start timeline (the config file's `timeline`): it replaces `scenario`. */
  timeline: TimelineSetting | undefined
  /** `--timeline FILE`: a JSON file holding the start timeline (read by bin.ts). */
  timelineFile: string | undefined
  dataFile: string | undefined
  /** An OpenAPI document whose operations the sandbox adds (a file path, or the document from a config file). */
  openapi: string | Readonly<Record<string, unknown>> | undefined
  adminToken: string | undefined
  /** Accounts (`--accounts open|invite`, contract §22): who may sign up at /portal. */
  accounts: 'open' | 'invite' | undefined
  /** Host names the control API answers besides loopback ones (`--allowed-host`, repeatable). */
  allowedHosts: string[] | undefined
  basePath: string | undefined
  /** Idle time before a session is dropped, in ms. */
  sessionTtlMs: number | undefined
  maxSessions: number | undefined
  /** A Redis URL (issue 13): state shared by every instance started with it. */
  store: string | undefined
  /** Prefix of the Redis keys. */
  storePrefix: string | undefined
  /** The name journal entries give this instance (default on a store: host:pid). */
  instance: string | undefined
  quiet: boolean
  /** Keys next to the demo keys, by name. */
  keys: Map<string, KeyOption>
  /** Config file only: bans of keys that keep sending while limited. */
  rateLimit: { banAfter?: number; banMinutes?: number } | undefined
  /** Config file only: the built-in `flaky` scenario's rate and seed. */
  flaky: { rate?: number; seed?: number } | undefined
  /** Config file only: how many requests each session's journal keeps. */
  journalSize: number | undefined
  /** How many requests every session's journal keeps together (the server-wide budget). */
  journalMaxEntries: number | undefined
  /** About how many bytes every session's journal keeps together. */
  journalMaxBytes: number | undefined
  /** Config file only (.js/.mjs/TypeScript): your own handlers. */
  handlers: readonly OwnHandler[] | undefined
  /** Config file only (.js/.mjs/TypeScript): your own scenarios. */
  scenarios: readonly Scenario[] | undefined
  /** Upstream mode (contract §17): the deployment's base URL. */
  upstream: string | undefined
  /** Sent upstream instead of the client's Authorization. */
  upstreamKey: string | undefined
  upstreamTimeoutMs: number | undefined
  /** The most bytes an upstream answer's body may have (raw and decoded). */
  upstreamMaxBodyBytes: number | undefined
  strictUpstream: boolean | undefined
  localLimits: boolean | undefined
  /** HAR file of the forwarded traffic. */
  record: string | undefined
  /** HAR file to answer from. */
  replay: string | undefined
  replayFallback: 'miss' | 'sandbox' | undefined
}

/** One source of settings (the flags, the environment or the config file): only what it sets. */
export type ServeInput = Partial<ServeSettings>

export const DEFAULT_PORT = 4010
export const DEFAULT_HOST = '127.0.0.1'

/**
 * Merges the sources of settings, the first winning: pass them as
 * `[flags, environment, configFile]`. Keys merge by name, so a key on the
 * command line adds to the file's keys (and replaces one of the same name).
 *
 * @example
 * resolveServeSettings([{ port: 0 }, {}, { port: 8080, seed: 7 }]) // port 0, seed 7
 */
export const resolveServeSettings = (sources: readonly ServeInput[]): ServeSettings => {
  const settings = mergeSources(sources)
  // Settings that only make sense together, whichever source each came from.
  if (settings.storePrefix !== undefined && settings.store === undefined)
    throw new CliUsageError('Failed to read --store-prefix: it needs --store.')
  if (settings.store !== undefined && settings.dataFile !== undefined)
    throw new CliUsageError(
      'Failed to read --data: a data file and --store cannot be combined (Redis keeps the pets).',
    )
  checkUpstreamSettings(settings)
  return settings
}

/** Upstream settings that need another one. */
const checkUpstreamSettings = (settings: ServeSettings): void => {
  const needsUpstream = [
    ['--upstream-key', settings.upstreamKey],
    ['--upstream-timeout', settings.upstreamTimeoutMs],
    ['--upstream-max-body', settings.upstreamMaxBodyBytes],
    ['--strict-upstream', settings.strictUpstream],
    ['--local-limits', settings.localLimits],
    ['--record', settings.record],
  ] as const
  for (const [flag, value] of needsUpstream)
    if (value !== undefined && value !== false && settings.upstream === undefined)
      throw new CliUsageError(`Failed to read ${flag}: it needs --upstream URL.`)
  if (settings.replayFallback !== undefined && settings.replay === undefined)
    throw new CliUsageError('Failed to read --replay-fallback: it needs --replay FILE.')
}

const mergeSources = (sources: readonly ServeInput[]): ServeSettings => {
  const first = <K extends keyof ServeSettings>(name: K): ServeSettings[K] | undefined => {
    for (const source of sources) if (source[name] !== undefined) return source[name]
    return undefined
  }
  // A Map: a key named `__proto__` is a key like any other (issue 24).
  const keys = new Map<string, KeyOption>()
  for (const source of [...sources].reverse())
    for (const [name, option] of source.keys ?? []) keys.set(name, option)
  return {
    port: first('port') ?? DEFAULT_PORT,
    host: first('host') ?? DEFAULT_HOST,
    seed: first('seed'),
    pets: first('pets'),
    scenario: first('scenario'),
    timeline: first('timeline'),
    timelineFile: first('timelineFile'),
    dataFile: first('dataFile'),
    openapi: first('openapi'),
    adminToken: first('adminToken'),
    accounts: first('accounts'),
    allowedHosts: first('allowedHosts'),
    basePath: first('basePath'),
    sessionTtlMs: first('sessionTtlMs'),
    maxSessions: first('maxSessions'),
    store: first('store'),
    storePrefix: first('storePrefix'),
    instance: first('instance'),
    quiet: first('quiet') ?? false,
    keys,
    rateLimit: first('rateLimit'),
    flaky: first('flaky'),
    journalSize: first('journalSize'),
    journalMaxEntries: first('journalMaxEntries'),
    journalMaxBytes: first('journalMaxBytes'),
    handlers: first('handlers'),
    scenarios: first('scenarios'),
    upstream: first('upstream'),
    upstreamKey: first('upstreamKey'),
    upstreamTimeoutMs: first('upstreamTimeoutMs'),
    upstreamMaxBodyBytes: first('upstreamMaxBodyBytes'),
    strictUpstream: first('strictUpstream'),
    localLimits: first('localLimits'),
    record: first('record'),
    replay: first('replay'),
    replayFallback: first('replayFallback'),
    ...fidelityOf(first),
  }
}

/** Each fidelity setting some source sets, by the same precedence. */
const fidelityOf = (
  first: <K extends keyof ServeSettings>(name: K) => ServeSettings[K] | undefined,
): Partial<FidelitySettings> => {
  const fidelity: Record<string, unknown> = {}
  for (const name of FIDELITY_SETTING_NAMES) {
    const value = first(name)
    if (value !== undefined) fidelity[name] = value
  }
  return fidelity as Partial<FidelitySettings>
}
