import { describe, expect, it } from 'vitest'
import { CliUsageError, parseCliArgs } from '../../src/cli/parse-cli-args.js'
import { parseConfigFile } from '../../src/cli/parse-config-file.js'

const settingsOf = (args: string[], env: Record<string, string> = {}) => {
  const command = parseCliArgs(args, env)
  if (command.kind !== 'serve') throw new Error(`expected serve, got ${command.kind}`)
  return command.settings
}

describe('parseCliArgs: control-plane flags', () => {
  it('reads --allowed-host as often as it is given', () => {
    expect(
      settingsOf(['--allowed-host', 'sandbox.internal', '--allowed-host', 'box.lan']),
    ).toMatchObject({ allowedHosts: ['sandbox.internal', 'box.lan'] })
  })

  it('reads PETSTORE_SANDBOX_ALLOWED_HOST as a list and allowedHosts from the config file; flags replace the list', () => {
    expect(settingsOf([], { PETSTORE_SANDBOX_ALLOWED_HOST: 'a.lan, [::2]' })).toEqual({
      allowedHosts: ['a.lan', '[::2]'],
    })
    expect(
      settingsOf(['--allowed-host', 'b.lan'], { PETSTORE_SANDBOX_ALLOWED_HOST: 'a.lan' }),
    ).toEqual({ allowedHosts: ['b.lan'] })
    expect(parseConfigFile({ allowedHosts: ['c.lan'] }, 'x.json')).toEqual({
      allowedHosts: ['c.lan'],
    })
    expect(() => parseConfigFile({ allowedHosts: ['http://c.lan'] }, 'x.json')).toThrow(
      /allowedHosts\.0 is not a host name/,
    )
  })

  it.each(['', 'a b', 'http://x', 'x/y'])('refuses --allowed-host %j', (value) => {
    expect(() => parseCliArgs(['--allowed-host', value])).toThrow(CliUsageError)
  })

  it('takes the admin token from PETSTORE_SANDBOX_ADMIN_TOKEN, so it need not be on the command line', () => {
    expect(settingsOf([], { PETSTORE_SANDBOX_ADMIN_TOKEN: 'from-env' })).toMatchObject({
      adminToken: 'from-env',
    })
    expect(
      settingsOf(['--admin-token', 'flag'], { PETSTORE_SANDBOX_ADMIN_TOKEN: 'from-env' }),
    ).toMatchObject({ adminToken: 'flag' })
    expect(settingsOf([], { PETSTORE_SANDBOX_ADMIN_TOKEN: '' }).adminToken).toBeUndefined()
  })

  it('checks the token from the environment like the flag', () => {
    expect(() => parseCliArgs([], { PETSTORE_SANDBOX_ADMIN_TOKEN: 'has space' })).toThrow(
      /PETSTORE_SANDBOX_ADMIN_TOKEN/,
    )
  })
})
