import { describe, expect, it } from 'vitest'
import { cliHelp } from '../../src/cli/cli-help.js'
import { CliUsageError, parseCliArgs } from '../../src/cli/parse-cli-args.js'
import { parseConfigFile } from '../../src/cli/parse-config-file.js'
import { resolveServeSettings, type ServeInput } from '../../src/cli/serve-settings.js'
import { starterConfig } from '../../src/cli/starter-config.js'
import {
  DEFAULT_JOURNAL_MAX_BYTES,
  DEFAULT_JOURNAL_MAX_ENTRIES,
} from '../../src/journal/journal-budget.js'
import { BUILT_IN_SCENARIOS } from '../../src/scenarios/scenario-registry.js'

// The server-wide journal budget (decision 0020) as flags, variables and config keys.

const settingsOf = (args: string[], env: Record<string, string> = {}): ServeInput => {
  const command = parseCliArgs(args, env)
  if (command.kind !== 'serve') throw new Error(`expected serve, got ${command.kind}`)
  return command.settings
}

const messageOf = (run: () => unknown): string => {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(CliUsageError)
    return (error as Error).message
  }
  throw new Error('expected a CliUsageError')
}

describe('--journal-max-entries and --journal-max-bytes', () => {
  it('reads both from the flags, their variables and the config file, a flag winning', () => {
    expect(settingsOf(['--journal-max-entries', '3', '--journal-max-bytes=65536'])).toEqual({
      journalMaxEntries: 3,
      journalMaxBytes: 65_536,
    })
    expect(
      settingsOf([], {
        PETSTORE_SANDBOX_JOURNAL_MAX_ENTRIES: '20',
        PETSTORE_SANDBOX_JOURNAL_MAX_BYTES: '1048576',
      }),
    ).toEqual({ journalMaxEntries: 20, journalMaxBytes: 1_048_576 })
    const file = parseConfigFile({ journalMaxEntries: 50, journalMaxBytes: 4096 }, 'x.json')
    expect(file).toEqual({ journalMaxEntries: 50, journalMaxBytes: 4096 })
    const flags = settingsOf(['--journal-max-entries', '7'], {
      PETSTORE_SANDBOX_JOURNAL_MAX_ENTRIES: '8',
      PETSTORE_SANDBOX_JOURNAL_MAX_BYTES: '9999',
    })
    expect(resolveServeSettings([flags, file])).toMatchObject({
      journalMaxEntries: 7,
      journalMaxBytes: 9999,
    })
  })

  it('leaves both unset by default, so the server keeps its defaults (10,000 and 32 MiB)', () => {
    expect(resolveServeSettings([settingsOf([])])).toMatchObject({
      journalMaxEntries: undefined,
      journalMaxBytes: undefined,
    })
    expect([DEFAULT_JOURNAL_MAX_ENTRIES, DEFAULT_JOURNAL_MAX_BYTES]).toEqual([10_000, 33_554_432])
  })

  it('takes 0 (keep none) and the largest budgets, 10,000,000 entries and 16 GiB', () => {
    expect(settingsOf(['--journal-max-entries', '0', '--journal-max-bytes', '0'])).toEqual({
      journalMaxEntries: 0,
      journalMaxBytes: 0,
    })
    expect(
      settingsOf(['--journal-max-entries', '10000000', '--journal-max-bytes', '17179869184']),
    ).toEqual({ journalMaxEntries: 10_000_000, journalMaxBytes: 17_179_869_184 })
  })

  it('takes the last of a repeated flag, as every other flag does', () => {
    expect(settingsOf(['--journal-max-entries', '5', '--journal-max-entries', '6'])).toEqual({
      journalMaxEntries: 6,
    })
    expect(settingsOf(['--port', '1', '--port', '2'])).toEqual({ port: 2 })
  })

  it.each([
    ['--journal-max-entries', '-1', '"-1" must be from 0 to 10000000.'],
    ['--journal-max-entries', '10000001', '"10000001" must be from 0 to 10000000.'],
    ['--journal-max-entries', '1.5', '"1.5" is not a whole number.'],
    ['--journal-max-entries', '1e3', '"1e3" is not a whole number.'],
    ['--journal-max-entries', 'many', '"many" is not a whole number.'],
    ['--journal-max-entries', '', '"" is not a whole number.'],
    [
      '--journal-max-entries',
      '99999999999999999999',
      '"99999999999999999999" must be a whole number.',
    ],
    ['--journal-max-bytes', '-5', '"-5" must be from 0 to 17179869184.'],
    ['--journal-max-bytes', '17179869185', '"17179869185" must be from 0 to 17179869184.'],
    ['--journal-max-bytes', '32mb', '"32mb" is not a whole number.'],
    ['--journal-max-bytes', '0x100', '"0x100" is not a whole number.'],
  ])('refuses %s %j: %s', (flag, value, reason) => {
    expect(messageOf(() => parseCliArgs([flag, value], {}))).toBe(
      `Failed to read ${flag}: ${reason}`,
    )
  })

  it('names the variable when the value came from it', () => {
    expect(messageOf(() => parseCliArgs([], { PETSTORE_SANDBOX_JOURNAL_MAX_BYTES: 'lots' }))).toBe(
      'Failed to read PETSTORE_SANDBOX_JOURNAL_MAX_BYTES: "lots" is not a whole number.',
    )
  })

  it.each([
    [{ journalMaxEntries: -1 }, 'journalMaxEntries must be from 0 to 10000000'],
    [{ journalMaxEntries: 2.5 }, 'journalMaxEntries must be a whole number'],
    [{ journalMaxEntries: '10' }, 'journalMaxEntries must be a number'],
    [{ journalMaxEntries: null }, 'journalMaxEntries must be a number'],
    [{ journalMaxBytes: 2 ** 40 }, 'journalMaxBytes must be from 0 to 17179869184'],
    [{ journalMaxBytes: '32mb' }, 'journalMaxBytes must be a number'],
  ])('refuses the config file %j: %s', (value, reason) => {
    const message = messageOf(() => parseConfigFile(value, 'team.json'))
    expect(message).toMatch(/^Failed to read the config file team\.json: /)
    expect(message).toContain(reason)
  })

  it('lists both in --help, the starter config and the config file’s settings', () => {
    const help = cliHelp(BUILT_IN_SCENARIOS)
    expect(help).toContain('--journal-max-entries N')
    expect(help).toContain('--journal-max-bytes N')
    const starter = starterConfig({ typescript: false })
    expect(starter).toContain('// journalMaxEntries: 10000,')
    expect(starter).toContain('// journalMaxBytes: 33554432,')
    expect(messageOf(() => parseConfigFile({ nope: 1 }, 'x.json'))).toContain(
      'journalSize, journalMaxEntries, journalMaxBytes',
    )
  })
})
