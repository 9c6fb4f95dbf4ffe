import { describe, expect, it } from 'vitest'
import { parseCliArgs } from '../../src/cli/parse-cli-args.js'
import { parseConfigFile } from '../../src/cli/parse-config-file.js'
import { resolveServeSettings } from '../../src/cli/serve-settings.js'

const serve = (args: string[], env: Record<string, string> = {}) => {
  const command = parseCliArgs(args, env)
  if (command.kind !== 'serve') throw new Error('not serve')
  return command.settings
}

describe('the upstream flags', () => {
  it('reads every flag, and the environment for each', () => {
    expect(
      serve([
        '--upstream',
        'https://staging.example.test/v1',
        '--upstream-key',
        'real-key',
        '--upstream-timeout',
        '1500ms',
        '--strict-upstream',
        '--local-limits',
        '--record',
        'out.har',
      ]),
    ).toMatchObject({
      upstream: 'https://staging.example.test/v1',
      upstreamKey: 'real-key',
      upstreamTimeoutMs: 1500,
      strictUpstream: true,
      localLimits: true,
      record: 'out.har',
    })
    expect(
      serve([], {
        PETSTORE_SANDBOX_UPSTREAM_KEY: 'from-env',
        PETSTORE_SANDBOX_REPLAY: 'in.har',
        PETSTORE_SANDBOX_REPLAY_FALLBACK: 'sandbox',
        PETSTORE_SANDBOX_STRICT_UPSTREAM: '0',
      }),
    ).toMatchObject({
      upstreamKey: 'from-env',
      replay: 'in.har',
      replayFallback: 'sandbox',
      strictUpstream: false,
    })
  })

  it.each([
    [
      ['--upstream', 'staging.example.test'],
      /--upstream: "staging.example.test" is not an http\(s\) base URL/,
    ],
    [['--upstream', 'https://s.test/v1?x=1'], /not an http\(s\) base URL/],
    [['--upstream-timeout', '0'], /--upstream-timeout: "0" must be a duration from 1ms to 300s/],
    [['--upstream-timeout', '6m'], /must be a duration/],
    // A unit the flag does not take: the rule, never zod's "expected number, received NaN".
    [
      ['--upstream-timeout', '10y'],
      /--upstream-timeout: "10y" must be a duration from 1ms to 300s/,
    ],
    [['--replay-fallback', 'upstream'], /--replay-fallback: "upstream" must be miss or sandbox/],
    [['--upstream-key', 'a b'], /--upstream-key/],
  ])('refuses %j', (args, message) => {
    expect(() => parseCliArgs(args, {})).toThrow(message)
  })

  it('refuses a setting that needs --upstream or --replay without it', () => {
    for (const flag of ['--strict-upstream', '--local-limits'])
      expect(() => resolveServeSettings([serve([flag])])).toThrow(
        `Failed to read ${flag}: it needs --upstream URL.`,
      )
    expect(() => resolveServeSettings([serve(['--replay-fallback', 'sandbox'])])).toThrow(
      /needs --replay FILE/,
    )
    expect(
      resolveServeSettings([serve(['--replay', 'x.har', '--replay-fallback', 'sandbox'])]),
    ).toMatchObject({ replay: 'x.har', replayFallback: 'sandbox' })
  })

  it('reads the config file’s keys, files beside the config file', () => {
    expect(
      parseConfigFile(
        {
          upstream: 'http://127.0.0.1:9/v1',
          upstreamTimeout: '2s',
          strictUpstream: true,
          record: 'rec/staging.har',
          replay: '/abs/in.har',
        },
        '/srv/sandbox/sandbox.config.json',
      ),
    ).toEqual({
      upstream: 'http://127.0.0.1:9/v1',
      upstreamTimeoutMs: 2000,
      strictUpstream: true,
      record: '/srv/sandbox/rec/staging.har',
      replay: '/abs/in.har',
    })
    expect(() => parseConfigFile({ upstreamTimeout: 'soon' }, 'c.json')).toThrow(/upstreamTimeout/)
  })
})

describe('--upstream-max-body', () => {
  it.each([
    ['10MiB', 10_485_760],
    ['512KiB', 524_288],
    ['512kib', 524_288],
    ['4096', 4096],
    ['256MiB', 268_435_456],
  ])('reads %s as %i bytes', (text, bytes) => {
    expect(
      serve(['--upstream', 'https://staging.example.test/v1', '--upstream-max-body', text]),
    ).toMatchObject({ upstreamMaxBodyBytes: bytes })
  })

  it.each([['0'], ['257MiB'], ['10MB'], ['ten'], ['-1'], ['1.5MiB']])(
    'refuses %s with the rule',
    (text) => {
      expect(() =>
        serve(['--upstream', 'https://staging.example.test/v1', '--upstream-max-body', text]),
      ).toThrow(/--upstream-max-body: .* must be a size from 1 byte to 256MiB/)
    },
  )

  it('reads the environment variable, and needs --upstream', () => {
    expect(
      serve(['--upstream', 'https://staging.example.test/v1'], {
        PETSTORE_SANDBOX_UPSTREAM_MAX_BODY: '1MiB',
      }),
    ).toMatchObject({ upstreamMaxBodyBytes: 1_048_576 })
    expect(() => resolveServeSettings([serve(['--upstream-max-body', '1MiB'])])).toThrow(
      'Failed to read --upstream-max-body: it needs --upstream URL.',
    )
  })

  it('reads upstreamMaxBody in the config file, a size or bytes', () => {
    expect(parseConfigFile({ upstreamMaxBody: '2MiB' }, 'c.json')).toMatchObject({
      upstreamMaxBodyBytes: 2_097_152,
    })
    expect(parseConfigFile({ upstreamMaxBody: 1000 }, 'c.json')).toMatchObject({
      upstreamMaxBodyBytes: 1000,
    })
  })
})
