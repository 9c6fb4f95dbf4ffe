import { afterAll, describe, expect, it } from 'vitest'
import { parseCliArgs } from '../../../src/cli/parse-cli-args.js'
import { parseConfigFile } from '../../../src/cli/parse-config-file.js'
import { killAllChildren, serverOrigin, spawnCli } from '../spawn-cli.js'

afterAll(() => killAllChildren())

describe('--accounts (contract §22)', () => {
  it('reads open and invite from the flag, the environment and the config file, and refuses anything else', () => {
    const flag = parseCliArgs(['--accounts', 'invite'])
    expect(flag.kind === 'serve' && flag.settings.accounts).toBe('invite')
    const env = parseCliArgs([], { PETSTORE_SANDBOX_ACCOUNTS: 'open' })
    expect(env.kind === 'serve' && env.settings.accounts).toBe('open')
    expect(() => parseCliArgs(['--accounts', 'closed'])).toThrow(/accounts.*open, invite/)
    expect(parseConfigFile({ accounts: 'open' }, 'x.mjs').accounts).toBe('open')
    expect(() => parseConfigFile({ accounts: true }, 'x.mjs')).toThrow(/accounts/)
  })

  it('refuses to start without --admin-token: exit 2 and one line', async () => {
    const run = spawnCli(['--accounts', 'open', '--port', '0'])
    expect(await run.exited).toBe(2)
    const lines = run.stderr().trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/--accounts open needs --admin-token/)
  })

  it('starts with an admin token and serves the portal API', async () => {
    const run = spawnCli(['--accounts', 'open', '--port', '0', '--quiet'], {
      PETSTORE_SANDBOX_ADMIN_TOKEN: 'cli-accounts-admin-token-0123456789',
    })
    const url = await serverOrigin(run)
    const me = await fetch(`${url}/portal/api/me`)
    expect(me.status).toBe(401)
    expect(await me.json()).toMatchObject({ code: 'login_required' })
    run.child.kill('SIGTERM')
    await run.exited
  })
})
