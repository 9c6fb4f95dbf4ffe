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
