import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FIDELITY_SETTING_NAMES } from '../../src/contract/fidelity.js'
import { type VerifyReport, verify } from '../../src/server/index.js'
import { killAllChildren, serverOrigin, spawnCli } from '../server/spawn-cli.js'
import { STAND_IN_CHOICES, STAND_IN_KEY, startStandIn } from './support/start-stand-in.js'

const dir = mkdtempSync(join(tmpdir(), 'verify-stand-in-'))
let standIn: Awaited<ReturnType<typeof startStandIn>>
beforeAll(async () => {
  standIn = await startStandIn()
})
afterAll(async () => {
  await standIn.stop()
  killAllChildren()
})

const gapsOf = (report: VerifyReport) =>
  Object.fromEntries(report.checks.filter((c) => c.kind === 'gap').map((c) => [c.id, c.observed]))

describe('verify against a spec-conformant stand-in with other gap choices (a process of its own)', () => {
  let report: VerifyReport
  const files = {
    json: join(dir, 'report.json'),
    junit: join(dir, 'report.xml'),
    config: join(dir, 'calibrated.json'),
  }

  it('passes every spec check and reports each gap as a difference (the CLI, exit 0)', async () => {
    const run = spawnCli(
      [
        'verify',
        '--target',
        standIn.url,
        '--allow-writes',
        '--report',
        'json',
        files.json,
        '--report',
        'junit',
        files.junit,
        '--emit-config',
        files.config,
      ],
      { PETSTORE_SANDBOX_VERIFY_KEY: STAND_IN_KEY },
    )
    expect(await run.exited, run.stderr()).toBe(0)
    report = JSON.parse(readFileSync(files.json, 'utf8')) as VerifyReport
    expect(report.checks.filter((c) => c.kind === 'spec' && !c.pass)).toEqual([])
    expect(report.passed).toBe(true)
    const gaps = report.checks.filter((c) => c.kind === 'gap')
    expect(gaps.map((c) => c.id).sort()).toEqual(
      FIDELITY_SETTING_NAMES.map((n) => `gap.${n}`).sort(),
    )
    for (const gap of gaps) expect(gap.pass, `${gap.id}: ${gap.message}`).toBe(false)
    expect(gapsOf(report)).toEqual(
      Object.fromEntries(
        Object.entries(STAND_IN_CHOICES).map(([name, value]) => [`gap.${name}`, value]),
      ),
    )
    expect(run.stdout()).toMatch(/DIFF {2}gap\.pagination +target: offset \| sandbox: cursor/)
    expect(run.stdout()).toContain('PASSED: 30 spec checks passed, 0 failed, 2 skipped')
    // The run wrote the config: it says so, and does not ask to run again with --emit-config.
    expect(run.stdout()).toContain(`Wrote the config to ${files.config}`)
    expect(run.stdout()).not.toContain('Run again with --emit-config')
    expect(report.createdPets.length).toBeLessThanOrEqual(5)
    for (const pet of report.createdPets)
      expect(pet.name).toMatch(/^petstore-sandbox verify \d{8}T\d{6}Z #\d$/)
  })

  it('writes a JUnit report with a spec and a gap suite', () => {
    const xml = readFileSync(files.junit, 'utf8')
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>/)
    expect(xml).toMatch(/<testsuite name="spec" tests="32" failures="0" skipped="2"/)
    expect(xml).toMatch(/<testsuite name="gap" tests="9" failures="0" skipped="0"/)
    expect(xml).toContain('<testcase classname="gap" name="gap.maxBodyBytes">')
    expect(xml).not.toContain(STAND_IN_KEY)
  })

  it('emits a config whose sandbox answers like the stand-in on every gap (round trip)', async () => {
    const config = JSON.parse(readFileSync(files.config, 'utf8'))
    expect(config).toEqual(STAND_IN_CHOICES)
    // The sandbox as users start it: the CLI with the emitted config.
    const run = spawnCli(['--port', '0', '--quiet', '--config', files.config])
    const origin = await serverOrigin(run)
    const calibrated = await verify({
      target: `${origin}/v1`,
      key: 'sandbox-enterprise',
      allowWrites: true,
      sandbox: config,
    })
    expect(calibrated.checks.filter((c) => c.kind === 'spec' && !c.pass)).toEqual([])
    expect(gapsOf(calibrated)).toEqual(gapsOf(report))
    for (const gap of calibrated.checks.filter((c) => c.kind === 'gap'))
      expect(gap.pass, `${gap.id}: ${gap.message}`).toBe(true)
    expect(calibrated.skipped.filter((s) => s.kind === 'gap')).toEqual([])
    run.child.kill('SIGINT')
    expect(await run.exited).toBe(0)
  })
})
