import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, statSync, symlinkSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'

// Runs this folder's Jest project (jsdom, ES modules) as a user would, on the
// built package through its exports map: node_modules/petstore-sandbox links
// to the repository root, as `npm link` or a workspace would.
const HERE = fileURLToPath(new URL('.', import.meta.url))
const ROOT = join(HERE, '../..')
const JEST = join(createRequire(import.meta.url).resolve('jest/package.json'), '../bin/jest.js')
const BUILT = join(ROOT, 'dist/runtimes/node.js')

const newestSource = (dir: string): number =>
  Math.max(
    ...readdirSync(dir, { withFileTypes: true }).map((entry) =>
      entry.isDirectory()
        ? newestSource(join(dir, entry.name))
        : statSync(join(dir, entry.name)).mtimeMs,
    ),
  )

beforeAll(() => {
  const link = join(HERE, 'node_modules/petstore-sandbox')
  if (!existsSync(link)) {
    mkdirSync(join(HERE, 'node_modules'), { recursive: true })
    symlinkSync('../../..', link, 'dir')
  }
})

describe('examples/jest (Jest 30, jsdom, native ES modules)', () => {
  it('is run against a build of the current source', () => {
    expect(existsSync(BUILT), 'run `npm run build` first').toBe(true)
    expect(
      statSync(BUILT).mtimeMs >= newestSource(join(ROOT, 'src')),
      'dist/ is older than src/: run `npm run build`',
    ).toBe(true)
  })

  it('passes every test of the example', () => {
    const run = spawnSync(process.execPath, ['--experimental-vm-modules', JEST, '--ci', '--json'], {
      cwd: HERE,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, NODE_NO_WARNINGS: '1' },
    })
    const report = JSON.parse(run.stdout) as {
      numPassedTests: number
      numFailedTests: number
      testResults: { message: string }[]
    }
    expect(report.testResults.map((r) => r.message).join('\n')).toBe('')
    expect(report).toMatchObject({ numFailedTests: 0, numPassedTests: 6 })
    expect(run.status).toBe(0)
  }, 120_000)

  it('loads with require() from CommonJS outside Jest (Node 20.19+ requires ES modules)', () => {
    const run = spawnSync(
      process.execPath,
      [
        '-e',
        "const { setupSandbox } = require('petstore-sandbox/node'); process.stdout.write(typeof setupSandbox)",
      ],
      { cwd: HERE, encoding: 'utf8', env: { ...process.env, NODE_NO_WARNINGS: '1' } },
    )
    expect(run.stderr).toBe('')
    expect(run.stdout).toBe('function')
  })
})
