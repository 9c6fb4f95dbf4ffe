import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

// The README's Playwright example (playwright/pets.spec.ts) as users run it:
// `npx playwright test`, importing the built package by its name.
const ROOT = fileURLToPath(new URL('../..', import.meta.url))

interface JsonReport {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number }
  errors: unknown[]
}

const runPlaywright = (limitMs: number) =>
  new Promise<{ code: number | string; stdout: string; stderr: string }>((resolve) => {
    const config = fileURLToPath(new URL('./playwright/playwright.config.ts', import.meta.url))
    // Its own output folder: Playwright empties it, and the project's test-results/ keeps the
    // other browser tests' screenshots.
    const output = fileURLToPath(new URL('./playwright/test-results', import.meta.url))
    const child = spawn(
      'npx',
      ['--no-install', 'playwright', 'test', '-c', config, '--output', output, '--reporter=json'],
      { cwd: ROOT, env: { ...process.env, CI: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
    })
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    const timer = setTimeout(() => child.kill('SIGTERM'), limitMs)
    child.on('exit', (code, signal) => {
      clearTimeout(timer)
      resolve({ code: code ?? signal ?? 'unknown', stdout, stderr })
    })
  })

it('passes the README’s Playwright example with @playwright/test', async () => {
  const run = await runPlaywright(60_000)
  const summary = `exit ${run.code}\n${run.stderr.slice(-2_000)}\n${run.stdout.slice(-2_000)}`
  expect(run.code, summary).toBe(0)
  const report = JSON.parse(run.stdout) as JsonReport
  expect(report.stats, summary).toMatchObject({
    expected: 1,
    unexpected: 0,
    flaky: 0,
    skipped: 0,
  })
  expect(report.errors).toEqual([])
}, 70_000)
