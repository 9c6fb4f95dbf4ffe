// Runs a Redocly CLI command (`npm run lint:openapi`: `redocly lint …`, the
// recommended rules, offline) without its boxed notices: on Node 20 it prints
// a deprecation banner on every run, which buried the test command's output.
// Everything else Redocly prints, and its exit code, pass through unchanged.
// Usage: node scripts/lint-openapi.mjs redocly lint FILE (npm puts `redocly` on PATH).
import { spawn } from 'node:child_process'

const [command = 'redocly', ...args] = process.argv.slice(2)
const child = spawn(command, args, {
  env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  stdio: ['ignore', 'inherit', 'pipe'],
})

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
