import { describe, expect, it } from 'vitest'
import { CliUsageError } from '../../src/cli/cli-usage-error.js'
import { parseVerifyArgs } from '../../src/cli/parse-verify-args.js'

const TARGET = 'https://staging.example/v1'

describe('parseVerifyArgs', () => {
  it('reads the target and key, and defaults to read-only with no files', () => {
    expect(parseVerifyArgs(['--target', TARGET, '--key', 'k'])).toEqual({
      kind: 'verify',
      target: TARGET,
      key: 'k',
      allowWrites: false,
      maxRequests: undefined,
      timeoutMs: undefined,
      reports: [],
      emitConfig: undefined,
      configFile: undefined,
    })
  })

  it('takes the key and target from the environment (off the process list)', () => {
    const command = parseVerifyArgs([], {
      PETSTORE_SANDBOX_VERIFY_TARGET: TARGET,
      PETSTORE_SANDBOX_VERIFY_KEY: 'secret',
    })
    expect(command).toMatchObject({ target: TARGET, key: 'secret' })
    expect(
      parseVerifyArgs(['--key', 'flag'], {
        PETSTORE_SANDBOX_VERIFY_TARGET: TARGET,
        PETSTORE_SANDBOX_VERIFY_KEY: 'env',
      }),
    ).toMatchObject({ key: 'flag' })
  })

  it('reads every option, --report twice', () => {
    expect(
      parseVerifyArgs([
        '--target',
        TARGET,
        '--key',
        'k',
        '--allow-writes',
        '--max-requests',
        '60',
        '--timeout',
        '500ms',
        '--report',
        'json',
        'out.json',
        '--report',
        'junit',
        'out.xml',
        '--emit-config',
        'c.json',
        '-c',
        'now.json',
      ]),
    ).toEqual({
      kind: 'verify',
      target: TARGET,
      key: 'k',
      allowWrites: true,
      maxRequests: 60,
      timeoutMs: 500,
      reports: [
        { format: 'json', file: 'out.json' },
        { format: 'junit', file: 'out.xml' },
      ],
      emitConfig: 'c.json',
      configFile: 'now.json',
    })
    expect(parseVerifyArgs(['--target', TARGET, '--key', 'k', '--timeout', '30'])).toMatchObject({
      timeoutMs: 30_000,
    })
  })

  it('answers --help', () => {
    expect(parseVerifyArgs(['--help'])).toEqual({ kind: 'verify-help' })
  })

  it.each([
    [[], /--target URL is required/],
    [['--target', TARGET], /--key KEY is required .*PETSTORE_SANDBOX_VERIFY_KEY/],
    [
      ['--target', TARGET, '--key', 'k', '--report', 'html', 'x'],
      /--report json FILE or --report junit FILE \(got "html"\)/,
    ],
    [['--target', TARGET, '--key', 'k', '--report', 'json'], /--report json: name the FILE/],
    [
      ['--target', TARGET, '--key', 'k', '--max-requests', '0'],
      /--max-requests: "0" must be from 1 to 10000/,
    ],
    [
      ['--target', TARGET, '--key', 'k', '--timeout', '50ms'],
      /--timeout: "50ms" must be a duration from 100ms to 300s/,
    ],
    [['--target', TARGET, '--key', 'k', '--writes'], /Unknown option '--writes'/],
    [['--target', TARGET, '--key', ''], /--key: the value is empty/],
  ])('refuses %j with a clear message', (args, message) => {
    expect(() => parseVerifyArgs(args)).toThrow(CliUsageError)
    expect(() => parseVerifyArgs(args)).toThrow(message)
  })
})
