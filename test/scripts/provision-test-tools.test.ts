import { spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import {
  planProvision,
  provisionTestTools,
  type TestTools,
} from '../../scripts/provision-test-tools.mjs'

// Issue 21, point 6: the pre-test step's decisions, with PATH tricks and fake
// programs in temporary folders: nothing is uninstalled, nothing real installed.
const SCRIPT = fileURLToPath(new URL('../../scripts/provision-test-tools.mjs', import.meta.url))
const folders: string[] = []
const folder = (): string => {
  const made = mkdtempSync(join(tmpdir(), 'petstore-provision-'))
  folders.push(made)
  return made
}
afterEach(() => {
  for (const made of folders.splice(0)) rmSync(made, { recursive: true, force: true })
})

const program = (path: string, body = 'exit 0'): string => {
  writeFileSync(path, `#!/bin/sh\n${body}\n`)
  chmodSync(path, 0o755)
  return path
}

const tools = (chromium: boolean, redis: boolean, aptGet: boolean): TestTools => ({
  chromium: { path: '/usr/bin/chromium', present: chromium, chosen: false },
  redis,
  aptGet,
})

describe('planProvision', () => {
  it('does nothing when Chromium and redis-server are there', () => {
    expect(planProvision({ tools: tools(true, true, false), root: false })).toEqual({
      kind: 'ready',
    })
  })

  it('installs only what is missing, as root with apt-get', () => {
    expect(planProvision({ tools: tools(false, true, true), root: true })).toEqual({
      kind: 'install',
      packages: ['chromium'],
    })
    expect(planProvision({ tools: tools(false, false, true), root: true })).toEqual({
      kind: 'install',
      packages: ['chromium', 'redis-server'],
    })
  })

  it('stops with the sudo command when not root, and with what to install without apt-get', () => {
    expect(planProvision({ tools: tools(true, false, true), root: false })).toEqual({
      kind: 'stop',
      line: 'petstore-sandbox: the tests need redis-server; run: sudo apt-get install -y redis-server',
    })
    const plan = planProvision({ tools: tools(false, false, false), root: true })
    expect(plan.kind).toBe('stop')
    expect(plan.kind === 'stop' && plan.line).toMatch(
      /^petstore-sandbox: the tests need chromium and redis-server; install chromium and redis-server with your package manager/,
    )
  })

  it('stops when PETSTORE_SANDBOX_CHROMIUM names no executable, rather than installing Debian’s', () => {
    const chosen: TestTools = {
      chromium: { path: '/nowhere/chrome', present: false, chosen: true },
      redis: true,
      aptGet: true,
    }
    const plan = planProvision({ tools: chosen, root: true })
    expect(plan.kind === 'stop' && plan.line).toMatch(
      /PETSTORE_SANDBOX_CHROMIUM=\/nowhere\/chrome is not an executable file/,
    )
  })
})

describe('the pre-test step as npm test runs it', () => {
  const run = (env: Record<string, string>) =>
    spawnSync(process.execPath, [SCRIPT], { env, encoding: 'utf8', timeout: 10_000 })

  it('exits 0 in silence when both tools are found (PATH and PETSTORE_SANDBOX_CHROMIUM)', () => {
    const bin = folder()
    program(join(bin, 'redis-server'))
    const chrome = program(join(bin, 'chrome'))
    const result = run({ PATH: bin, PETSTORE_SANDBOX_CHROMIUM: chrome })
    expect([result.status, result.stdout, result.stderr]).toEqual([0, '', ''])
  })

  it('stops at once with one line when a tool is missing and apt-get is not there', () => {
    const bin = folder()
    const chrome = program(join(bin, 'chrome'))
    const result = run({ PATH: bin, PETSTORE_SANDBOX_CHROMIUM: chrome })
    expect(result.status).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^petstore-sandbox: the tests need redis-server; install redis-server/),
    ])
  })
})

describe('provisionTestTools installing with apt-get (a fake one)', () => {
  /** A fake apt-get that logs its calls, whether the policy was in place, and "installs" by creating the programs. */
  const fakeApt = (bin: string, chromium: string, policy: string, status = 0) => {
    const log = join(bin, 'apt.log')
    program(
      join(bin, 'apt-get'),
      [
        // Shell built-ins and /bin/chmod only: PATH holds nothing but this folder.
        `last=; if [ -f ${policy} ]; then while IFS= read -r l; do last=$l; done < ${policy}; fi`,
        `echo "$* policy=$last frontend=$DEBIAN_FRONTEND" >> ${log}`,
        `if [ "$1" = install ]; then printf '#!/bin/sh\\n' > ${bin}/redis-server; /bin/chmod +x ${bin}/redis-server;`,
        `  printf '#!/bin/sh\\n' > ${chromium}; /bin/chmod +x ${chromium}; fi`,
        `exit ${status}`,
      ].join('\n'),
    )
    return log
  }

  it('runs update and install of the missing packages, with a policy-rc.d it removes after', () => {
    const bin = folder()
    const chromiumPath = join(bin, 'chromium')
    const policyPath = join(bin, 'policy-rc.d')
    const log = fakeApt(bin, chromiumPath, policyPath)
    const lines: string[] = []
    const code = provisionTestTools({
      env: { PATH: bin },
      root: true,
      chromiumPath,
      policyPath,
      log: (line) => lines.push(line),
      stdio: 'ignore',
    })
    expect(code).toBe(0)
    expect(readFileSync(log, 'utf8').trimEnd().split('\n')).toEqual([
      'update policy=exit 101 frontend=noninteractive',
      'install -y chromium redis-server policy=exit 101 frontend=noninteractive',
    ])
    expect(existsSync(policyPath)).toBe(false)
    expect(lines).toHaveLength(1)
  })

  it('leaves a policy-rc.d that was there before in place', () => {
    const bin = folder()
    const chromiumPath = program(join(bin, 'chromium'))
    const policyPath = program(join(bin, 'policy-rc.d'), 'exit 104')
    fakeApt(bin, chromiumPath, policyPath)
    const code = provisionTestTools({
      env: { PATH: bin },
      root: true,
      chromiumPath,
      policyPath,
      log: () => {},
      stdio: 'ignore',
    })
    expect(code).toBe(0)
    expect(readFileSync(policyPath, 'utf8')).toBe('#!/bin/sh\nexit 104\n')
  })

  it('stops with one line naming the command when apt-get fails', () => {
    const bin = folder()
    const chromiumPath = program(join(bin, 'chromium'))
    const policyPath = join(bin, 'policy-rc.d')
    fakeApt(bin, join(bin, 'unused'), policyPath, 100)
    const lines: string[] = []
    const code = provisionTestTools({
      env: { PATH: bin },
      root: true,
      chromiumPath,
      policyPath,
      log: (line) => lines.push(line),
      stdio: 'ignore',
    })
    expect(code).toBe(1)
    expect(lines.at(-1)).toBe(
      'petstore-sandbox: apt-get could not install redis-server; run: apt-get update && apt-get install -y redis-server',
    )
    expect(existsSync(policyPath)).toBe(false)
  })
})
