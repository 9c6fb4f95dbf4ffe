#!/usr/bin/env node
import { readFileSync } from 'node:fs'
import { DEMO_KEYS } from '../contract/plans.js'
import { createSandboxServer } from '../server/create-sandbox-server.js'
import { DataFileError } from '../server/data-file/read-data-file.js'
import { formatLogLine } from '../server/format-log-line.js'
import { CLI_HELP } from './cli-help.js'
import { CliUsageError, parseCliArgs } from './parse-cli-args.js'
import { showSeedProgress } from './seed-progress.js'

// The CLI only parses arguments and starts things (see docs/architecture.md).
const fail = (code: 1 | 2, message: string): never => {
  process.stderr.write(`petstore-sandbox: ${message}\n`)
  if (code === 2) process.stderr.write('Run "petstore-sandbox --help" for the options.\n')
  process.exit(code)
}

let command: ReturnType<typeof parseCliArgs>
try {
  command = parseCliArgs(process.argv.slice(2), process.env)
} catch (error) {
  command = fail(2, error instanceof CliUsageError ? error.message : String(error))
}

if (command.kind === 'help') {
  process.stdout.write(CLI_HELP)
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

const {
  port,
  host,
  quiet,
  dataFile,
  adminToken,
  allowedHosts,
  basePath,
  seed,
  pets,
  scenario,
  sessionTtlMs,
  maxSessions,
} = command
const { store, storePrefix } = command
// A large --pets count takes a while to seed: a progress line on a terminal.
const seeded = showSeedProgress({ pets, seed, dataFile }, process.stderr)
let app: ReturnType<typeof createSandboxServer>
try {
  app = createSandboxServer({
    seed,
    pets,
    scenario,
    dataFile,
    adminToken,
    allowedHosts,
    baseUrl: basePath,
    sessionTtlMs,
    maxSessions,
    ...(store === undefined ? {} : { store: { url: store, prefix: storePrefix } }),
    onRequest: quiet ? undefined : (entry) => process.stdout.write(`${formatLogLine(entry)}\n`),
  })
} catch (error) {
  // Options that createSandbox refuses (an unknown scenario, say) are bad arguments.
  app = fail(2, error instanceof Error ? error.message : String(error))
}

let address: Awaited<ReturnType<typeof app.listen>>
try {
  address = await app.listen(port, host)
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code
  if (error instanceof DataFileError) fail(1, error.message)
  if (code === 'EADDRINUSE')
    fail(1, `Failed to listen on ${host}:${port}: the port is in use. Pass another --port (or 0).`)
  address = fail(1, `Failed to start: ${error instanceof Error ? error.message : String(error)}`)
}

// Requests report a failed seeding themselves; the line goes either way.
await app.sandbox.ready.then(seeded, seeded)

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
const keys = Object.entries(DEMO_KEYS)
  .map(([key, plan]) => `    ${key.padEnd(20)} ${plan}`)
  .join('\n')
process.stdout.write(
  `petstore-sandbox serving ${api}
  Try:      curl -H "Authorization: Bearer sandbox-free" ${api}/pets
  Keys:
${keys}
  Scenario: ${store === undefined ? app.sandbox.scenario.get() : await (await app.sandbox.state.session('default')).sticky()} — per request ?__scenario=NAME or X-Sandbox-Scenario: NAME;
            sticky: curl -X PUT -H "Content-Type: application/json" -d '{"name":"slow"}' ${address.url}/__sandbox/scenario
  Control:  ${address.url}/__sandbox/${dataFile === undefined ? '' : `\n  Data:     ${dataFile}`}${store === undefined ? '' : `\n  Store:    ${store.replace(/\/\/[^@/]*@/, '//***@')} (shared state)`}
  Stop:     Ctrl+C
`,
)
