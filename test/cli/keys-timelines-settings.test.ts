import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseCliArgs } from '../../src/cli/parse-cli-args.js'
import { parseConfigFile } from '../../src/cli/parse-config-file.js'
import { KeyFlagError, parseKeyFlag } from '../../src/cli/parse-key-flag.js'
import { readTimelineFile } from '../../src/cli/read-timeline-file.js'
import { createSandbox } from '../../src/index.js'

const fail = (message: string): never => {
  throw new Error(message)
}

describe('--key with a scenario', () => {
  it('reads KEY=PLAN:SCENARIO, and the scenario after enterprise limits', () => {
    expect(parseKeyFlag('app=free:unavailable')).toEqual([
      'app',
      { plan: 'free', scenario: 'unavailable' },
    ])
    expect(parseKeyFlag('big=enterprise:slow')).toEqual([
      'big',
      { plan: 'enterprise', scenario: 'slow' },
    ])
    expect(parseKeyFlag('big=enterprise:10::flaky')).toEqual([
      'big',
      { plan: 'enterprise', perMinute: 10, scenario: 'flaky' },
    ])
    // Still a limit: a number after enterprise.
    expect(parseKeyFlag('big=enterprise:10')).toEqual([
      'big',
      { plan: 'enterprise', perMinute: 10 },
    ])
  })

  it('refuses a scenario that is no name, and limits on another plan', () => {
    for (const bad of [
      'a=pro:Slow',
      'a=pro:',
      'a=pro:5',
      'a=pro:✓',
      'a=pro:slow:1',
      'a=enterprise:1:2:x:y',
    ])
      expect(() => parseKeyFlag(bad), bad).toThrow(KeyFlagError)
  })

  it('reaches the sandbox, which checks the scenario name at start', () => {
    const command = parseCliArgs(['--key', 'app=pro:unavailable'], {})
    expect(command.kind === 'serve' && command.settings.keys?.get('app')).toEqual({
      plan: 'pro',
      scenario: 'unavailable',
    })
    expect(() =>
      // @ts-expect-error a typo fails type checking too (decision 0057)
      createSandbox({ keys: { app: { plan: 'pro', scenario: 'unavailble' } } }),
    ).toThrow(/scenario "unavailble" is unknown\. Use one of default, empty, .*, outage\.$/)
  })
})

describe('timelines in the config file and --timeline', () => {
  it('reads keys with a scenario next to the old plan form, and a start timeline', () => {
    const input = parseConfigFile(
      {
        keys: { app: { plan: 'free', scenario: 'slow' }, team: 'pro' },
        timeline: { timeline: [{ scenario: 'unavailable', forMs: 30_000 }], repeat: true },
      },
      'sandbox.json',
    )
    expect(input.keys?.get('app')).toEqual({ plan: 'free', scenario: 'slow' })
    expect(input.keys?.get('team')).toBe('pro')
    expect(input.timeline).toEqual({
      timeline: [{ scenario: 'unavailable', forMs: 30_000 }],
      repeat: true,
    })
  })

  it('names the bad phase of a config timeline', () => {
    expect(() =>
      parseConfigFile({ timeline: [{ scenario: 'empty', forMs: -1 }] }, 'sandbox.json'),
    ).toThrow(/timeline\[0\]\.forMs must be a positive whole number/)
    expect(() => parseConfigFile({ timeline: 'outage' }, 'sandbox.json')).toThrow(
      /must be a list of phases/,
    )
  })

  it('reads --timeline FILE as a list of phases or as the control API body', () => {
    const dir = mkdtempSync(join(tmpdir(), 'timeline-'))
    const list = join(dir, 'list.json')
    writeFileSync(list, JSON.stringify([{ scenario: 'unavailable', forMs: 1000 }]))
    expect(readTimelineFile(list, fail)).toEqual({
      timeline: [{ scenario: 'unavailable', forMs: 1000 }],
    })
    const body = join(dir, 'body.json')
    writeFileSync(
      body,
      JSON.stringify({ timeline: [{ scenario: 'empty', forMs: 5 }], repeat: true }),
    )
    expect(readTimelineFile(body, fail)).toMatchObject({ repeat: true })
    const broken = join(dir, 'broken.json')
    writeFileSync(broken, '[{')
    expect(() => readTimelineFile(broken, fail)).toThrow(/Failed to read --timeline .*JSON/)
    expect(() => readTimelineFile(join(dir, 'missing.json'), fail)).toThrow(/Failed to read/)
    const parsed = parseCliArgs(['--timeline', list], {})
    expect(parsed.kind === 'serve' && parsed.settings.timelineFile).toBe(list)
  })

  it('runs a start timeline from each session start, again after a reset', async () => {
    let now = Date.parse('2030-01-01T00:00:00Z')
    const sandbox = createSandbox({
      now: () => now,
      scenario: {
        timeline: [
          { scenario: 'unavailable', forMs: 10_000 },
          { scenario: 'default', forMs: 1 },
        ],
      },
    })
    expect(sandbox.scenario.get()).toBe('timeline')
    expect(sandbox.scenario.timeline()?.phase).toMatchObject({ index: 0, leftMs: 10_000 })
    now += 10_000
    expect(sandbox.scenario.timeline()?.phase).toMatchObject({ index: 1, leftMs: null })
    await sandbox.reset()
    expect(sandbox.scenario.timeline()?.phase).toMatchObject({ index: 0 })
    expect(() =>
      createSandbox({ scenario: { timeline: [{ scenario: 'nope', forMs: 1 }] } }),
    ).toThrow(/start scenario is not valid.*timeline\[0\]\.scenario/)
  })
})
