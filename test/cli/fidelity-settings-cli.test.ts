import { describe, expect, it } from 'vitest'
import { CliUsageError, parseCliArgs } from '../../src/cli/parse-cli-args.js'
import { parseConfigFile } from '../../src/cli/parse-config-file.js'
import { resolveServeSettings, type ServeInput } from '../../src/cli/serve-settings.js'

const settingsOf = (args: string[], env: Record<string, string> = {}): ServeInput => {
  const command = parseCliArgs(args, env)
  if (command.kind !== 'serve') throw new Error(`expected serve, got ${command.kind}`)
  return command.settings
}

describe('the fidelity settings on the command line and in the config file', () => {
  it('reads every single-value setting from its flag, or its environment variable', () => {
    expect(
      settingsOf([
        '--limit-out-of-range',
        'clamp',
        '--unknown-status-filter',
        'empty',
        '--default-status',
        'sold',
        '--name-max-length',
        '40',
        '--unknown-fields',
        'reject',
        '--pagination',
        'offset',
        '--total-count-header',
        'X-Total',
        '--max-body-bytes',
        '4096',
      ]),
    ).toEqual({
      limitOutOfRange: 'clamp',
      unknownStatusFilter: 'empty',
      defaultStatus: 'sold',
      nameMaxLength: 40,
      unknownFields: 'reject',
      pagination: 'offset',
      totalCountHeader: 'X-Total',
      maxBodyBytes: 4096,
    })
    expect(
      settingsOf([], {
        PETSTORE_SANDBOX_PAGINATION: 'none',
        PETSTORE_SANDBOX_TOTAL_COUNT_HEADER: 'false',
      }),
    ).toEqual({ pagination: 'none', totalCountHeader: false })
    expect(settingsOf(['--total-count-header', 'none'])).toEqual({ totalCountHeader: false })
  })

  it.each([
    [['--limit-out-of-range', 'cap'], /--limit-out-of-range: "cap" must be one of reject, clamp/],
    [['--unknown-status-filter', 'drop'], /must be one of reject, ignore, empty/],
    [['--default-status', 'adopted'], /must be one of available, pending, sold/],
    [['--name-max-length', '0'], /--name-max-length: "0" must be from 1 to 10000/],
    [['--name-max-length', 'long'], /is not a whole number/],
    [['--pagination', 'page'], /must be one of cursor, offset, none/],
    [
      ['--total-count-header', 'X Total'],
      /must be a header name \(such as X-Total-Count\) or false/,
    ],
    [['--max-body-bytes', '100'], /must be from 1024 to 10485760/],
  ])('refuses %j with a message naming the flag', (args, message) => {
    expect(() => parseCliArgs(args)).toThrow(CliUsageError)
    expect(() => parseCliArgs(args)).toThrow(message)
  })

  it('reads every setting from the config file, errorCodes included, and a flag wins over it', () => {
    const file = parseConfigFile(
      {
        limitOutOfRange: 'clamp',
        unknownStatusFilter: 'ignore',
        defaultStatus: 'pending',
        nameMaxLength: 50,
        unknownFields: 'reject',
        pagination: 'offset',
        totalCountHeader: false,
        errorCodes: { pet_not_found: 'not_found' },
        maxBodyBytes: 16_384,
      },
      'calibrated.json',
    )
    const settings = resolveServeSettings([settingsOf(['--pagination', 'none']), {}, file])
    expect(settings).toMatchObject({
      limitOutOfRange: 'clamp',
      unknownStatusFilter: 'ignore',
      defaultStatus: 'pending',
      nameMaxLength: 50,
      unknownFields: 'reject',
      pagination: 'none',
      totalCountHeader: false,
      errorCodes: { pet_not_found: 'not_found' },
      maxBodyBytes: 16_384,
    })
  })

  it('leaves a setting nobody set to the sandbox’s default', () => {
    expect(resolveServeSettings([{}, {}, {}])).not.toHaveProperty('pagination')
  })

  it.each([
    [{ errorCodes: { nope: 'x' } }, /errorCodes\.nope is not one of the sandbox’s error codes/],
    [{ errorCodes: { pet_not_found: 'has space' } }, /errorCodes\.pet_not_found must be a code/],
    [{ totalCountHeader: true }, /totalCountHeader must be a header name/],
    [{ maxBodyBytes: 1 }, /maxBodyBytes must be from 1024 to 10485760/],
  ])('refuses a bad config file %j, naming the file and the field', (value, message) => {
    expect(() => parseConfigFile(value, 'bad.json')).toThrow(
      /^Failed to read the config file bad\.json: /,
    )
    expect(() => parseConfigFile(value, 'bad.json')).toThrow(message)
  })
})
