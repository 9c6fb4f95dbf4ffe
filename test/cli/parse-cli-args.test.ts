import { describe, expect, it } from 'vitest'
import { CliUsageError, parseCliArgs } from '../../src/cli/parse-cli-args.js'

describe('parseCliArgs', () => {
  it('defaults to 127.0.0.1:4010 and reads PORT', () => {
    expect(parseCliArgs([], {})).toMatchObject({
      kind: 'serve',
      port: 4010,
      host: '127.0.0.1',
      quiet: false,
    })
    expect(parseCliArgs([], { PORT: '5000' })).toMatchObject({ port: 5000 })
    expect(parseCliArgs(['--port', '0'], { PORT: '5000' })).toMatchObject({ port: 0 })
  })

  it('reads --session-ttl as a duration (seconds by default) and --max-sessions', () => {
    expect(parseCliArgs(['--session-ttl', '90'], {})).toMatchObject({ sessionTtlMs: 90_000 })
    expect(parseCliArgs(['--session-ttl', '30m'], {})).toMatchObject({ sessionTtlMs: 1_800_000 })
    expect(parseCliArgs(['--session-ttl=2h'], {})).toMatchObject({ sessionTtlMs: 7_200_000 })
    expect(parseCliArgs(['--session-ttl', '1500ms'], {})).toMatchObject({ sessionTtlMs: 1_500 })
    expect(parseCliArgs(['--max-sessions', '5'], {})).toMatchObject({ maxSessions: 5 })
    expect(parseCliArgs([], {})).toMatchObject({ sessionTtlMs: undefined, maxSessions: undefined })
  })

  it.each([
    ['--session-ttl', '0'],
    ['--session-ttl', '999ms'],
    ['--session-ttl', '1d'],
    ['--session-ttl', '721h'],
    ['--max-sessions', '0'],
    ['--max-sessions', '1.5'],
  ])('refuses %s %s with a clear message', (flag, value) => {
    expect(() => parseCliArgs([flag, value], {})).toThrow(CliUsageError)
    expect(() => parseCliArgs([flag, value], {})).toThrow(new RegExp(`^Failed to read ${flag}`))
  })

  it('reads every flag', () => {
    expect(
      parseCliArgs([
        '--host',
        '0.0.0.0',
        '--seed',
        '7',
        '--pets',
        '100',
        '--scenario',
        'slow',
        '--data',
        'p.json',
        '--admin-token',
        'abc',
        '--base-path',
        '/api/v1',
        '-q',
      ]),
    ).toEqual({
      kind: 'serve',
      port: 4010,
      host: '0.0.0.0',
      seed: 7,
      pets: 100,
      scenario: 'slow',
      dataFile: 'p.json',
      adminToken: 'abc',
      basePath: '/api/v1',
      quiet: true,
    })
    expect(parseCliArgs(['--help'])).toEqual({ kind: 'help' })
    expect(parseCliArgs(['-v'])).toEqual({ kind: 'version' })
  })

  it.each([[['--port', '-1']], [['--pets', '1e3']], [['--seed']], [['--data', '']], [['--nope']]])(
    'throws CliUsageError for %j',
    (args) => {
      expect(() => parseCliArgs(args)).toThrow(CliUsageError)
    },
  )
})
