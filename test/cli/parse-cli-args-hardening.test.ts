import { describe, expect, it } from 'vitest'
import { CliUsageError, parseCliArgs } from '../../src/cli/parse-cli-args.js'

describe('parseCliArgs: control-plane flags', () => {
  it('reads --allowed-host as often as it is given', () => {
    expect(
      parseCliArgs(['--allowed-host', 'sandbox.internal', '--allowed-host', 'box.lan']),
    ).toMatchObject({ allowedHosts: ['sandbox.internal', 'box.lan'] })
  })

  it.each(['', 'a b', 'http://x', 'x/y'])('refuses --allowed-host %j', (value) => {
    expect(() => parseCliArgs(['--allowed-host', value])).toThrow(CliUsageError)
  })

  it('takes the admin token from PETSTORE_SANDBOX_ADMIN_TOKEN, so it need not be on the command line', () => {
    expect(parseCliArgs([], { PETSTORE_SANDBOX_ADMIN_TOKEN: 'from-env' })).toMatchObject({
      adminToken: 'from-env',
    })
    expect(
      parseCliArgs(['--admin-token', 'flag'], { PETSTORE_SANDBOX_ADMIN_TOKEN: 'from-env' }),
    ).toMatchObject({ adminToken: 'flag' })
    expect(parseCliArgs([], { PETSTORE_SANDBOX_ADMIN_TOKEN: '' })).toMatchObject({
      adminToken: undefined,
    })
  })

  it('checks the token from the environment like the flag', () => {
    expect(() => parseCliArgs([], { PETSTORE_SANDBOX_ADMIN_TOKEN: 'has space' })).toThrow(
      /PETSTORE_SANDBOX_ADMIN_TOKEN/,
    )
  })
})
