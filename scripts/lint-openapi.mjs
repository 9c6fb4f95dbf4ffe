// Lints the OpenAPI document with Redocly's CLI (recommended rules, offline),
// without its boxed notices: on Node 20 it prints a deprecation banner on
// every run, which buried the test command's output. Everything else Redocly
// prints, and its exit code, pass through unchanged.
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const cliPackage = createRequire(import.meta.url).resolve('@redocly/cli/package.json')
const child = spawn(
  process.execPath,
  [join(dirname(cliPackage), 'bin/cli.js'), 'lint', 'openapi/petstore-sandbox.openapi.json'],
  {
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    stdio: ['ignore', 'inherit', 'pipe'],
  },
)

let pending = ''
let inBox = false
const passThrough = (text) => {
  for (const line of text.split('\n')) {
    if (line.includes('╔')) inBox = true
    if (!inBox) process.stderr.write(`${line}\n`)
    if (line.includes('╚')) inBox = false
  }
}
child.stderr.setEncoding('utf8')
child.stderr.on('data', (chunk) => {
  const lines = (pending + chunk).split('\n')
  pending = lines.pop() ?? ''
  if (lines.length > 0) passThrough(lines.join('\n'))
})
child.on('close', (code, signal) => {
  if (pending !== '') passThrough(pending)
  process.exit(code ?? (signal === null ? 1 : 1))
})
