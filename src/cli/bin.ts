#!/usr/bin/env node
import { readFileSync } from 'node:fs'
import { RecordingFileError } from '../files/recording-file-error.js'
import { BUILT_IN_SCENARIOS } from '../scenarios/scenario-registry.js'
import { stickyName } from '../scenarios/timeline.js'
import { createSandboxServer, type SandboxServer } from '../server/create-sandbox-server.js'
import { DataFileError } from '../server/data-file/read-data-file.js'
import { formatLogLine } from '../server/format-log-line.js'
import { SERVER_LIMITS } from '../server/server-limits.js'
import { cliHelp } from './cli-help.js'
import { formatBanner } from './format-banner.js'
import { loadConfigFile } from './load-config-file.js'
import { CliUsageError, parseCliArgs } from './parse-cli-args.js'
import { parseConfigFile } from './parse-config-file.js'
import { readTimelineFile } from './read-timeline-file.js'
import { showSeedProgress } from './seed-progress.js'
import { resolveServeSettings, type ServeSettings } from './serve-settings.js'
import { shouldLogRequest } from './should-log-request.js'

// The CLI only parses arguments and starts things (see docs/architecture.md).

/** The banner's upstream mode lines (contract §17): where requests go, what is recorded or replayed. */
const upstreamLines = (settings: ServeSettings): string => {
  const lines: string[] = []
  if (settings.upstream !== undefined) {
    const url = settings.upstream.replace(/\/\/[^@/]*@/, '//***@')
    const how = [
      settings.upstreamKey === undefined ? 'Authorization passed through' : 'upstream key',
      settings.strictUpstream === true ? 'strict' : 'report-only',
      settings.localLimits === true ? 'local limits' : 'no local limits',
    ]
    lines.push(
      `\n  Upstream: ${url} (${how.join(', ')}; scenarios other than default, slow, flaky answered here)`,
    )
  }
  if (settings.record !== undefined) lines.push(`\n  Record:   ${settings.record}`)
  if (settings.replay !== undefined)
    lines.push(
      `\n  Replay:   ${settings.replay} (unmatched: ${settings.replayFallback === 'sandbox' ? 'the sandbox answers' : '404 replay_miss'})`,
    )
  return lines.join('')
}
/** The longest error line the CLI prints: quoted input is cut before, this is the backstop. */
const MESSAGE_MAX = 4_000

const fail = (code: 1 | 2, message: string): never => {
  const line =
    message.length > MESSAGE_MAX
      ? `${message.slice(0, MESSAGE_MAX)}… (${message.length.toLocaleString('en-US')} characters)`
      : message
  process.stderr.write(`petstore-sandbox: ${line}\n`)
  if (code === 2) process.stderr.write('Run "petstore-sandbox --help" for the options.\n')
  process.exit(code)
}

// `petstore-sandbox verify …`: check a deployment, then exit (docs/verify.md). Loaded
// only then, as `report` and `init` are: a plain start parses none of it (issue 20).
if (process.argv[2] === 'verify') {
  const { runVerifyCommand } = await import('./verify-command.js')
  const code = await runVerifyCommand(process.argv.slice(3), process.env, {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  })
  // Exit once what was written has been flushed (stdout may be a pipe).
  await new Promise<void>((resolve) => process.stdout.write('', () => resolve()))
  process.exit(code)
}

// `petstore-sandbox report --from FILE.har` (issue 23): its own arguments, loaded only then.
if (process.argv[2] === 'report') {
  const { runReportCommand } = await import('./report-command.js')
  const status = await runReportCommand(process.argv.slice(3), process)
  // Exit once a piped stdout has taken everything (a large --json report).
  await new Promise((resolve) => process.stdout.write('', resolve))
  process.exit(status)
}

// `petstore-sandbox pact --from FILE.har` (issue 30): a Pact v4 file from a recording.
if (process.argv[2] === 'pact') {
  const { runPactCommand } = await import('./pact-command.js')
  const status = await runPactCommand(process.argv.slice(3), process)
  await new Promise((resolve) => process.stdout.write('', resolve))
  process.exit(status)
}

let command: ReturnType<typeof parseCliArgs>
try {
  command = parseCliArgs(process.argv.slice(2), process.env)
} catch (error) {
  command = fail(2, error instanceof CliUsageError ? error.message : String(error))
}

if (command.kind === 'help') {
  process.stdout.write(cliHelp(BUILT_IN_SCENARIOS))
  process.exit(0)
}
if (command.kind === 'init') {
  const { writeStarterConfig } = await import('./write-starter-config.js')
  let written: string
  try {
    written = writeStarterConfig(command.file)
  } catch (error) {
    written = fail(2, error instanceof Error ? error.message : String(error))
  }
  process.stdout.write(written)
  process.exit(0)
}
if (command.kind === 'version') {
  const pkg: unknown = JSON.parse(
    readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
  )
  const version =
    typeof pkg === 'object' && pkg !== null && 'version' in pkg ? String(pkg.version) : 'unknown'
  process.stdout.write(`${version}\n`)
  process.exit(0)
}

// Precedence: flag > environment > config file > default.
let settings: ServeSettings
try {
  const file =
    command.configFile === undefined
      ? {}
      : parseConfigFile(await loadConfigFile(command.configFile), command.configFile)
  settings = resolveServeSettings([command.settings, file])
} catch (error) {
  settings = fail(2, error instanceof Error ? error.message : String(error))
}

const { port, host, quiet, dataFile, adminToken, basePath, store } = settings
// The start timeline: --timeline FILE (a JSON list of phases, or PUT /__sandbox/scenario's body), else the config file's.
const timeline =
  settings.timelineFile === undefined
    ? settings.timeline
    : readTimelineFile(settings.timelineFile, (message) => fail(2, message))
if (timeline !== undefined && settings.scenario !== undefined)
  fail(
    2,
    'Failed to read --timeline: it replaces --scenario (the start scenario); give one of them.',
  )
// Accounts face a network: the control API must not be open to loopback alone (contract §22).
if (settings.accounts !== undefined && adminToken === undefined) {
  process.stderr.write(
    `petstore-sandbox: --accounts ${settings.accounts} needs --admin-token (accounts face a network; the admin token guards the control API).\n`,
  )
  process.exit(2)
}
// A short token is guessable by anyone who reaches the port, throttling or not (issue 24).
if (adminToken !== undefined && adminToken.length < SERVER_LIMITS.minAdminTokenLength)
  process.stderr.write(
    `petstore-sandbox: warning: the admin token has ${adminToken.length} characters; a short one can be guessed (wrong tokens are only slowed down, ${SERVER_LIMITS.maxWrongAdminTokens} a minute per address). Use at least ${SERVER_LIMITS.minAdminTokenLength} random characters, e.g. "openssl rand -hex 16".\n`,
  )
// A large --pets count takes a while to seed: a progress line on a terminal.
const seeded = showSeedProgress(
  { pets: settings.pets, seed: settings.seed, dataFile },
  process.stderr,
)
let app: SandboxServer<string>
try {
  // Names from the command line and the config file are checked at run time.
  app = createSandboxServer<string>({
    seed: settings.seed,
    pets: settings.pets,
    scenario: timeline ?? settings.scenario,
    // Own properties: a key named `__proto__` stays a key.
    keys: Object.fromEntries(settings.keys),
    rateLimit: settings.rateLimit,
    flaky: settings.flaky,
    journalSize: settings.journalSize,
    journalMaxEntries: settings.journalMaxEntries,
    journalMaxBytes: settings.journalMaxBytes,
    handlers: settings.handlers,
    openapi: settings.openapi,
    scenarios: settings.scenarios,
    limitOutOfRange: settings.limitOutOfRange,
    unknownStatusFilter: settings.unknownStatusFilter,
    defaultStatus: settings.defaultStatus,
    nameMaxLength: settings.nameMaxLength,
    unknownFields: settings.unknownFields,
    pagination: settings.pagination,
    totalCountHeader: settings.totalCountHeader,
    errorCodes: settings.errorCodes,
    maxBodyBytes: settings.maxBodyBytes,
    sessionTtlMs: settings.sessionTtlMs,
    maxSessions: settings.maxSessions,
    ...(settings.store === undefined
      ? {}
      : { store: { url: settings.store, prefix: settings.storePrefix } }),
    ...(settings.upstream === undefined && settings.replay === undefined
      ? {}
      : {
          upstream: {
            url: settings.upstream,
            key: settings.upstreamKey,
            timeoutMs: settings.upstreamTimeoutMs,
            maxBodyBytes: settings.upstreamMaxBodyBytes,
            strict: settings.strictUpstream,
            localLimits: settings.localLimits,
            record: settings.record,
            replay: settings.replay,
            replayFallback: settings.replayFallback,
          },
        }),
    instance: settings.instance,
    dataFile,
    adminToken,
    accounts: settings.accounts,
    allowedHosts: settings.allowedHosts,
    baseUrl: basePath,
    onRequest: quiet
      ? undefined
      : (entry) => {
          if (shouldLogRequest(entry)) process.stdout.write(`${formatLogLine(entry)}\n`)
        },
  })
} catch (error) {
  // A recording that cannot be replayed or appended to: the file's fault, not the arguments'.
  if (error instanceof RecordingFileError) fail(1, error.message)
  // Options that createSandbox refuses (an unknown scenario, say) are bad arguments.
  const message = error instanceof Error ? error.message : String(error)
  // A phase of --timeline FILE naming an unknown scenario: the file is named, not the option.
  const problem = /(The timeline is not valid: .*?) Fix the scenario option\.$/s.exec(message)?.[1]
  app = fail(
    2,
    settings.timelineFile !== undefined && problem !== undefined
      ? `Failed to read --timeline ${settings.timelineFile}: ${problem}`
      : message,
  )
}

let address: Awaited<ReturnType<typeof app.listen>>
try {
  address = await app.listen(port, host)
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code
  if (error instanceof DataFileError) fail(1, error.message)
  // Matched by its words: the OpenAPI machinery is not loaded to name its class (a start without it stays light).
  const message = error instanceof Error ? error.message : ''
  if (message.startsWith('Failed to load the OpenAPI document:'))
    fail(1, message.split('\n')[0] ?? message)
  if (code === 'EADDRINUSE')
    fail(1, `Failed to listen on ${host}:${port}: the port is in use. Pass another --port (or 0).`)
  address = fail(1, `Failed to start: ${error instanceof Error ? error.message : String(error)}`)
}

// Requests report a failed seeding themselves; the line goes either way.
await app.sandbox.ready.then(seeded, seeded)
// Notes about the user's OpenAPI document (examples not served as they break their schema): one line each.
if (!quiet && app.sandbox.openapi !== undefined)
  for (const note of (await app.sandbox.openapi.catch(() => undefined))?.notes ?? [])
    process.stderr.write(`petstore-sandbox: note: ${note}\n`)

// Handlers first: a signal right after the banner must still stop gracefully.
let stopping = false
const stop = (signal: string): void => {
  if (stopping) return
  stopping = true
  if (!quiet) process.stdout.write(`${signal}: finishing in-flight requests…\n`)
  app.close().then(
    () => process.exit(0),
    (error: unknown) => fail(1, `Failed to stop cleanly: ${String(error)}`),
  )
}
process.on('SIGINT', () => stop('SIGINT'))
process.on('SIGTERM', () => stop('SIGTERM'))

const api = `${address.url}${basePath?.replace(/\/$/, '') ?? '/v1'}`
process.stdout.write(
  formatBanner({
    api,
    origin: address.url,
    keys: settings.keys,
    scenario:
      store === undefined
        ? app.sandbox.scenario.get()
        : stickyName(await (await app.sandbox.state.session('default')).sticky()),
    scenarios: app.sandbox.scenario.list().map((s) => s.name),
    dataFile,
    store,
    upstream: upstreamLines(settings),
    // Loaded by listen: the document's operations, for the `Added:` lines.
    added:
      app.sandbox.openapi === undefined
        ? undefined
        : {
            source: typeof settings.openapi === 'string' ? settings.openapi : 'the config file',
            operations: (await app.sandbox.openapi).operations,
          },
  }),
)
// What the sandbox does not check of an OpenAPI document: one line each, none when quiet.
if (!quiet && app.sandbox.openapi !== undefined)
  for (const notice of (await app.sandbox.openapi).notices) process.stdout.write(`${notice}\n`)
