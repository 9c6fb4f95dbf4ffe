import { describe, expect, it } from 'vitest'
import { cliHelp } from '../../src/cli/cli-help.js'
import { CliUsageError, parseCliArgs } from '../../src/cli/parse-cli-args.js'
import { parseConfigFile } from '../../src/cli/parse-config-file.js'
import { parseKeyFlag } from '../../src/cli/parse-key-flag.js'
import { resolveServeSettings, type ServeInput } from '../../src/cli/serve-settings.js'
import { BUILT_IN_SCENARIOS } from '../../src/scenarios/scenario-registry.js'

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

describe('parseCliArgs', () => {
  it('defaults to 127.0.0.1:4010 and reads PORT', () => {
    expect(resolveServeSettings([settingsOf([])])).toMatchObject({
      port: 4010,
      host: '127.0.0.1',
      quiet: false,
      keys: new Map(),
    })
    expect(settingsOf([], { PORT: '5000' })).toEqual({ port: 5000 })
    expect(settingsOf(['--port', '0'], { PORT: '5000' })).toEqual({ port: 0 })
  })

  it('reads --session-ttl as a duration (seconds by default) and --max-sessions, flag or environment', () => {
    expect(settingsOf(['--session-ttl', '90'])).toEqual({ sessionTtlMs: 90_000 })
    expect(settingsOf(['--session-ttl', '30m'])).toEqual({ sessionTtlMs: 1_800_000 })
    expect(settingsOf(['--session-ttl=2h'])).toEqual({ sessionTtlMs: 7_200_000 })
    expect(settingsOf(['--session-ttl', '1500ms'])).toEqual({ sessionTtlMs: 1_500 })
    expect(settingsOf(['--max-sessions', '5'])).toEqual({ maxSessions: 5 })
    expect(
      settingsOf([], { PETSTORE_SANDBOX_SESSION_TTL: '5m', PETSTORE_SANDBOX_MAX_SESSIONS: '9' }),
    ).toEqual({ sessionTtlMs: 300_000, maxSessions: 9 })
    expect(resolveServeSettings([settingsOf([])])).toMatchObject({
      sessionTtlMs: undefined,
      maxSessions: undefined,
    })
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

  // Issue 21: "1d" printed zod's raw "expected number, received NaN"; the flag now says what
  // it takes, in the config file's words.
  it.each(['1d', 'soon', '', '1.5h'])(
    'explains the duration rule for --session-ttl %j',
    (value) => {
      const message = messageOf(() => parseCliArgs(['--session-ttl', value], {}))
      expect(message).toBe(
        `Failed to read --session-ttl: "${value}" must be a duration from 1s to 720h (write 90, 90s, 30m or 2h).`,
      )
      expect(messageOf(() => parseConfigFile({ sessionTtl: value || '1d' }, 'x.json'))).toContain(
        'sessionTtl must be a duration from 1s to 720h (write 90, 90s, 30m or 2h)',
      )
    },
  )

  it('reads every flag', () => {
    expect(
      parseCliArgs([
        '--config',
        'sandbox.json',
        '--host',
        '0.0.0.0',
        '--seed',
        '7',
        '--pets',
        '100',
        '--scenario',
        'slow',
        '--key',
        'team=pro',
        '--key',
        'big-co=enterprise:20000:2000000',
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
      configFile: 'sandbox.json',
      settings: {
        host: '0.0.0.0',
        seed: 7,
        pets: 100,
        scenario: 'slow',
        keys: new Map<string, unknown>([
          ['team', 'pro'],
          ['big-co', { plan: 'enterprise', perMinute: 20_000, perDay: 2_000_000 }],
        ]),
        dataFile: 'p.json',
        adminToken: 'abc',
        basePath: '/api/v1',
        quiet: true,
      },
    })
    expect(parseCliArgs(['--help'])).toEqual({ kind: 'help' })
    expect(parseCliArgs(['-v'])).toEqual({ kind: 'version' })
  })

  it('reads PETSTORE_SANDBOX_<FLAG> for every flag', () => {
    const command = parseCliArgs([], {
      PETSTORE_SANDBOX_CONFIG: 'team.json',
      PETSTORE_SANDBOX_PORT: '8080',
      PETSTORE_SANDBOX_HOST: '0.0.0.0',
      PETSTORE_SANDBOX_SEED: '-3',
      PETSTORE_SANDBOX_PETS: '5',
      PETSTORE_SANDBOX_SCENARIO: 'empty',
      PETSTORE_SANDBOX_KEY: 'a=pro, b=enterprise::9',
      PETSTORE_SANDBOX_DATA: 'pets.json',
      PETSTORE_SANDBOX_ADMIN_TOKEN: 'tok',
      PETSTORE_SANDBOX_BASE_PATH: '/api',
      PETSTORE_SANDBOX_QUIET: 'true',
    })
    expect(command).toEqual({
      kind: 'serve',
      configFile: 'team.json',
      settings: {
        port: 8080,
        host: '0.0.0.0',
        seed: -3,
        pets: 5,
        scenario: 'empty',
        keys: new Map<string, unknown>([
          ['a', 'pro'],
          ['b', { plan: 'enterprise', perDay: 9 }],
        ]),
        dataFile: 'pets.json',
        adminToken: 'tok',
        basePath: '/api',
        quiet: true,
      },
    })
  })

  it('lets a flag win over its environment variable, and PETSTORE_SANDBOX_PORT over PORT', () => {
    expect(settingsOf(['--seed', '1'], { PETSTORE_SANDBOX_SEED: '2' }).seed).toBe(1)
    expect(settingsOf([], { PETSTORE_SANDBOX_PORT: '1', PORT: '2' }).port).toBe(1)
    expect(settingsOf([], { PETSTORE_SANDBOX_QUIET: '0' }).quiet).toBe(false)
    expect(settingsOf(['--key', 'a=free'], { PETSTORE_SANDBOX_KEY: 'a=pro,b=pro' }).keys).toEqual(
      new Map([
        ['a', 'free'],
        ['b', 'pro'],
      ]),
    )
    // An empty variable is unset.
    expect(settingsOf([], { PETSTORE_SANDBOX_SEED: '' })).toEqual({})
  })

  it('gives "--port -1" the same message as "--port=-1", and takes a negative seed', () => {
    const spaced = messageOf(() => parseCliArgs(['--port', '-1']))
    expect(spaced).toBe(messageOf(() => parseCliArgs(['--port=-1'])))
    expect(spaced).toBe('Failed to read --port: "-1" must be from 0 to 65535.')
    expect(settingsOf(['--seed', '-5']).seed).toBe(-5)
    expect(settingsOf(['-p', '0']).port).toBe(0)
  })

  it.each([
    [['--port', '-1'], '--port'],
    [['--pets', '1e3'], '--pets'],
    [['--seed'], '--seed'],
    [['--data', ''], '--data'],
    [['--nope'], '--nope'],
    [['--key', 'team'], '--key'],
    [['--key', 'team=gold'], 'unknown plan "gold"'],
    [['--key', 'team=pro:5'], 'only enterprise keys'],
    [['--key', 'team=enterprise:0'], 'PER_MINUTE must be a whole number >= 1'],
    [['--key', 'bad key=pro'], 'RFC 6750'],
    [['--base-path', 'v1'], 'a path such as /v1'],
  ])('throws CliUsageError for %j, naming %s', (args, part) => {
    expect(messageOf(() => parseCliArgs(args))).toContain(part)
  })

  it.each([
    [{ PETSTORE_SANDBOX_PORT: 'x' }, 'PETSTORE_SANDBOX_PORT'],
    [{ PORT: '99999' }, 'PORT'],
    [{ PETSTORE_SANDBOX_QUIET: 'maybe' }, 'PETSTORE_SANDBOX_QUIET'],
    [{ PETSTORE_SANDBOX_KEY: 'a=pro,b' }, 'PETSTORE_SANDBOX_KEY'],
  ])('names the environment variable in the message for %j', (env, name) => {
    expect(messageOf(() => parseCliArgs([], env))).toMatch(new RegExp(`^Failed to read ${name}:`))
  })
})

describe('parseKeyFlag', () => {
  it('reads a plan, and an enterprise key with either limit', () => {
    expect(parseKeyFlag('k=business')).toEqual(['k', 'business'])
    expect(parseKeyFlag('k=enterprise:10')).toEqual(['k', { plan: 'enterprise', perMinute: 10 }])
    expect(parseKeyFlag('k=enterprise::10')).toEqual(['k', { plan: 'enterprise', perDay: 10 }])
    expect(parseKeyFlag('sk.a-b=free')).toEqual(['sk.a-b', 'free'])
  })
})

describe('parseConfigFile', () => {
  it('reads every setting and resolves data against the file', () => {
    expect(
      parseConfigFile(
        {
          $schema: './node_modules/petstore-sandbox/config.schema.json',
          port: 8080,
          host: '0.0.0.0',
          seed: 1,
          pets: 3,
          scenario: 'empty',
          keys: { team: 'pro', 'big-co': { plan: 'enterprise', perMinute: 20_000 } },
          data: 'pets.json',
          adminToken: 'abc',
          basePath: '/api/v1',
          quiet: true,
          rateLimit: { banAfter: 5, banMinutes: 1 },
          flaky: { rate: 0.5, seed: 7 },
          journalSize: 50,
          sessionTtl: '30m',
          maxSessions: 10,
        },
        '/teams/shop/sandbox.json',
      ),
    ).toEqual({
      port: 8080,
      host: '0.0.0.0',
      seed: 1,
      pets: 3,
      scenario: 'empty',
      keys: new Map<string, unknown>([
        ['team', 'pro'],
        ['big-co', { plan: 'enterprise', perMinute: 20_000 }],
      ]),
      dataFile: '/teams/shop/pets.json',
      adminToken: 'abc',
      basePath: '/api/v1',
      quiet: true,
      rateLimit: { banAfter: 5, banMinutes: 1 },
      flaky: { rate: 0.5, seed: 7 },
      journalSize: 50,
      sessionTtlMs: 1_800_000,
      maxSessions: 10,
    })
  })

  it.each([
    [{ port: 70_000 }, 'port must be from 0 to 65535'],
    [{ port: '80' }, 'port must be a number'],
    [{ prot: 80 }, '"prot" is not a setting'],
    [{ keys: { team: 'gold' } }, 'keys.team must be a plan'],
    [{ keys: { team: { plan: 'pro', perMinute: 5 } } }, 'keys.team only enterprise keys'],
    [{ keys: { 'bad key': 'pro' } }, 'keys.bad key'],
    [
      { keys: { big: { plan: 'enterprise', perDay: 0 } } },
      'keys.big.perDay must be a whole number >= 1',
    ],
    [{ rateLimit: { banafter: 1 } }, '"banafter" is not a setting of rateLimit'],
    [{ sessionTtl: '1d' }, 'sessionTtl must be a duration from 1s to 720h'],
    [{ sessionTtl: 0.5 }, 'sessionTtl must be a duration'],
    [{ maxSessions: 0 }, 'maxSessions must be from 1 to 1000000'],
    [[], 'expected object'],
  ])('refuses %j with a message naming the field (%s)', (value, part) => {
    const message = messageOf(() => parseConfigFile(value, 'team.json'))
    expect(message).toMatch(/^Failed to read the config file team\.json: /)
    expect(message).toContain(part)
  })
})

describe('resolveServeSettings', () => {
  it('takes flag > environment > config file > default, and merges keys by name', () => {
    const cli = settingsOf(['--seed', '1', '--key', 'a=pro'], {
      PETSTORE_SANDBOX_PETS: '2',
      PETSTORE_SANDBOX_SEED: '9',
    })
    const file = parseConfigFile(
      { seed: 3, pets: 4, scenario: 'empty', keys: { a: 'free', b: 'business' } },
      'x.json',
    )
    expect(resolveServeSettings([cli, file])).toMatchObject({
      seed: 1,
      pets: 2,
      scenario: 'empty',
      port: 4010,
      keys: new Map([
        ['a', 'pro'],
        ['b', 'business'],
      ]),
    })
  })
})

describe('--store (Redis) in the settings', () => {
  it('reads it from the flag, PETSTORE_SANDBOX_STORE or the config file', () => {
    expect(settingsOf(['--store', 'redis://127.0.0.1:6379/0'])).toEqual({
      store: 'redis://127.0.0.1:6379/0',
    })
    expect(
      settingsOf([], {
        PETSTORE_SANDBOX_STORE: 'rediss://cache:6380',
        PETSTORE_SANDBOX_STORE_PREFIX: 'team:',
      }),
    ).toEqual({ store: 'rediss://cache:6380', storePrefix: 'team:' })
    expect(parseConfigFile({ store: 'redis://r:6379/1' }, 'x.json')).toEqual({
      store: 'redis://r:6379/1',
    })
  })

  it('refuses a prefix without a store, and a store with a data file, whichever source each came from', () => {
    expect(() => resolveServeSettings([{ storePrefix: 'p:' }])).toThrow(
      'Failed to read --store-prefix: it needs --store.',
    )
    expect(() =>
      resolveServeSettings([{ store: 'redis://r:6379/0' }, {}, { dataFile: '/x/pets.json' }]),
    ).toThrow(/a data file and --store cannot be combined/)
    expect(messageOf(() => parseCliArgs(['--store', 'http://r:6379']))).toContain(
      'is not a Redis URL',
    )
  })
})

describe('--store for a Redis Cluster, and --instance', () => {
  it('reads a cluster URL and an instance name from the flags, the variables or the config file', () => {
    expect(
      settingsOf(['--store', 'redis+cluster://10.0.0.1:7000,10.0.0.2:7000', '--instance', 'web-1']),
    ).toEqual({ store: 'redis+cluster://10.0.0.1:7000,10.0.0.2:7000', instance: 'web-1' })
    expect(
      settingsOf([], {
        PETSTORE_SANDBOX_STORE: 'rediss+cluster://cache:7000',
        PETSTORE_SANDBOX_INSTANCE: 'host.example:42',
      }),
    ).toEqual({ store: 'rediss+cluster://cache:7000', instance: 'host.example:42' })
    expect(parseConfigFile({ store: 'redis+cluster://r:7000', instance: 'b' }, 'x.json')).toEqual({
      store: 'redis+cluster://r:7000',
      instance: 'b',
    })
  })

  it.each([['a b'], ['x'.repeat(65)], ['naïve']])('refuses the instance name %j', (name) => {
    expect(messageOf(() => parseCliArgs(['--instance', name]))).toContain(
      'must be 1-64 characters of A-Z a-z 0-9 . _ : @ -',
    )
  })
})

describe('cliHelp', () => {
  it('lists every scenario of the registry with its description', () => {
    const help = cliHelp(BUILT_IN_SCENARIOS)
    for (const scenario of BUILT_IN_SCENARIOS) {
      expect(help).toMatch(
        new RegExp(`\\n  ${scenario.name} +${scenario.description.slice(0, 20)}`),
      )
    }
  })
})
