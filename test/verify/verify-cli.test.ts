import { createServer } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { runVerifyCommand } from '../../src/cli/verify-command.js'
import { killAllChildren, serverOrigin, spawnCli } from '../server/spawn-cli.js'

afterAll(() => killAllChildren())

describe('petstore-sandbox verify (the CLI)', () => {
  it('prints its help and exits 0', async () => {
    const run = spawnCli(['verify', '--help'])
    expect(await run.exited).toBe(0)
    expect(run.stdout()).toMatch(/^Usage: petstore-sandbox verify --target URL --key KEY/)
  })

  it('exits 2 for bad arguments, with a clear message', async () => {
    const run = spawnCli(['verify', '--target', 'https://staging.example/v2', '--key', 'k'])
    expect(await run.exited).toBe(2)
    expect(run.stderr()).toMatch(
      /^petstore-sandbox: Failed to verify: target must end with the version segment \/v1/,
    )
    expect(run.stderr()).toContain('verify --help')
  })

  it.each([
    [[]],
    [['--target', 'https://staging.example/v1']],
    [['--target', 'ftp://staging.example/v1', '--key', 'k']],
    [['--target', 'https://staging.example/v1?x=1', '--key', 'k']],
    [['--target', 'https://staging.example/v1', '--key', 'k', '--report', 'pdf', 'x']],
    [['--target', 'https://staging.example/v1', '--key', 'has space']],
    [['--target', 'https://staging.example/v1', '--key', 'k', '--config', '/nonexistent.json']],
  ])('answers %j with exit 2 and a clear message, never echoing the key', async (args) => {
    let stderr = ''
    const code = await runVerifyCommand(
      args,
      {},
      { stdout: () => {}, stderr: (text) => (stderr += text) },
    )
    expect(code).toBe(2)
    expect(stderr).toMatch(/^petstore-sandbox: Failed to /)
    expect(stderr).toContain('verify --help')
    expect(stderr).not.toContain('has space')
  })

  it('exits 1 with the reason when the target does not answer', async () => {
    const probe = createServer()
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
    const address = probe.address()
    const port = typeof address === 'object' && address !== null ? address.port : 0
    await new Promise((resolve) => probe.close(resolve))
    const run = spawnCli(['verify', '--target', `http://127.0.0.1:${port}/v1`, '--timeout', '2s'], {
      PETSTORE_SANDBOX_VERIFY_KEY: 'sandbox-free',
    })
    expect(await run.exited).toBe(1)
    expect(run.stdout()).toMatch(
      /FAIL {2}spec\.auth\.valid-key +GET http:\/\/127\.0\.0\.1:\d+\/v1\/pets\?limit=100: connection refused/,
    )
    expect(run.stdout()).toMatch(/^Stopped early: /m)
    expect(run.stdout()).toContain('FAILED: 0 spec checks passed, 1 failed')
  })

  it('serves with fidelity flags, and verify sees them (exit 0, gaps reported apart)', async () => {
    const server = spawnCli([
      '--port',
      '0',
      '--quiet',
      '--pagination',
      'none',
      '--total-count-header',
      'false',
      '--limit-out-of-range',
      'clamp',
    ])
    const origin = await serverOrigin(server)
    const run = spawnCli(['verify', '--target', `${origin}/v1`, '--key', 'sandbox-enterprise'])
    expect(await run.exited, run.stderr()).toBe(0)
    expect(run.stdout()).toMatch(/DIFF {2}gap\.pagination +target: none \| sandbox: cursor/)
    expect(run.stdout()).toMatch(
      /DIFF {2}gap\.totalCountHeader +target: false \| sandbox: X-Total-Count/,
    )
    expect(run.stdout()).toMatch(/DIFF {2}gap\.limitOutOfRange +target: clamp \| sandbox: reject/)
    expect(run.stdout()).toMatch(
      /same {2}gap\.unknownStatusFilter +target: reject \| sandbox: reject/,
    )
    expect(run.stdout()).not.toContain('sandbox-enterprise')
    expect(run.stdout()).toContain('Run again with --emit-config FILE')
    server.child.kill('SIGINT')
    expect(await server.exited).toBe(0)
  })
})
