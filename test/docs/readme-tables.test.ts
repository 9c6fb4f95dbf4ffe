import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ERROR_CODES } from '../../src/contract/error-codes.js'
import { DEMO_KEYS, PLAN_LIMITS, type PlanName } from '../../src/contract/plans.js'
import { DEFAULT_DEPRECATED_AT, DEFAULT_SUNSET_AT } from '../../src/sandbox/sandbox-options.js'

// The tables a newcomer needs are in the README; the rules behind them in docs/api.md.
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
const apiGuide = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8')

/** The rows of the Markdown table that follows `heading`, as arrays of cells. */
const tableAfter = (heading: string): string[][] => {
  expect(readme).toContain(`\n${heading}\n`)
  const rest = readme.slice(readme.indexOf(`\n${heading}\n`))
  const lines = rest.split('\n')
  const start = lines.findIndex((line) => line.startsWith('|'))
  const rows: string[][] = []
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    )
  }
  return rows
}
const unquote = (cell: string | undefined) => (cell ?? '').replaceAll('`', '')
const count = (cell: string | undefined) => Number((cell ?? '').replaceAll(',', ''))

describe('the README and the API guide', () => {
  it('lists every error code with its status, and no other', () => {
    const rows = tableAfter('## Error codes')
    const table = Object.fromEntries(rows.map((row) => [unquote(row[0]), Number(row[1])]))
    expect(table).toEqual(ERROR_CODES)
    for (const row of rows) expect(row[2]?.length ?? 0).toBeGreaterThan(10)
  })

  it('lists the demo keys with their plans and quotas', () => {
    // The demo keys, then the scenario keys (contract §19), on the free plan.
    const rows = tableAfter('## Keys')
    expect(rows.map((row) => [unquote(row[0]), row[1]])).toEqual([
      ...Object.entries(DEMO_KEYS),
      ['sandbox-scenario-NAME', 'free'],
    ])
    for (const row of rows) {
      const limits = PLAN_LIMITS[row[1] as PlanName]
      expect([count(row[2]), count(row[3])]).toEqual([limits.perMinute, limits.perDay])
    }
  })

  it('states the default deprecation and sunset dates the sandbox uses', () => {
    expect(apiGuide).toContain(`Deprecation: @${Date.parse(DEFAULT_DEPRECATED_AT) / 1000}`)
    expect(apiGuide).toContain(`Sunset: ${new Date(DEFAULT_SUNSET_AT).toUTCString()}`)
    const testRunner = readFileSync(new URL('../../docs/test-runner.md', import.meta.url), 'utf8')
    expect(testRunner).toContain(`'${DEFAULT_SUNSET_AT}'`)
  })

  it('shows the three-line set-up the example suite uses', () => {
    const example = readFileSync(
      new URL('../../examples/node-vitest/pet-client.test.ts', import.meta.url),
      'utf8',
    )
    for (const line of [
      'const sandbox = setupSandbox()',
      'beforeAll(() => sandbox.listen())',
      'afterEach(() => sandbox.reset())',
      'afterAll(() => sandbox.close())',
    ]) {
      expect(readme).toContain(line)
      expect(example).toContain(line)
    }
  })
})
