import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const BUNDLE = new URL('../../dist/cli/petstore-sandbox.js', import.meta.url)
/** The tests in sessions.spec.ts (one per case). */
const EXPECTED_TESTS = 8

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('Failed to find a free port.')),
      )
    })
  })

interface JsonReport {
  config: { workers: number }
  stats: { expected: number; unexpected: number; flaky: number; skipped: number }
  errors: unknown[]
}

/** Runs `npx playwright test -c examples/playwright-sessions/playwright.config.ts` with the JSON reporter, killed after `limitMs`. */
const runPlaywright = (port: number, limitMs: number) =>
  new Promise<{ code: number | string; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(
      'npx',
      [
        '--no-install',
        'playwright',
        'test',
        '-c',
        fileURLToPath(new URL('./playwright.config.ts', import.meta.url)),
        '--reporter=json',
      ],
      {
        cwd: ROOT,
        env: { ...process.env, PETSTORE_SANDBOX_PORT: String(port), CI: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
    })
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    // Playwright stops its workers and its webServer on SIGTERM.
    const timer = setTimeout(() => child.kill('SIGTERM'), limitMs)
    child.on('exit', (code, signal) => {
      clearTimeout(timer)
      resolve({ code: code ?? signal ?? 'unknown', stdout, stderr })
    })
  })

it('passes the @playwright/test suite: 4 parallel workers, one server, a session per test', async () => {
  expect(existsSync(BUNDLE), 'run `npm run build` first: webServer starts dist/').toBe(true)
  const run = await runPlaywright(await freePort(), 80_000)
  const summary = `exit ${run.code}\n${run.stderr.slice(-2_000)}\n${run.stdout.slice(-2_000)}`
  expect(run.code, summary).toBe(0)
  const report = JSON.parse(run.stdout) as JsonReport
  expect(report.config.workers).toBe(4)
  expect(report.stats, summary).toMatchObject({
    expected: EXPECTED_TESTS,
    unexpected: 0,
    flaky: 0,
    skipped: 0,
  })
  expect(report.errors).toEqual([])
}, 90_000)
