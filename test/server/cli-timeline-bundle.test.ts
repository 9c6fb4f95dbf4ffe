import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { killAllChildren, serverOrigin, spawnCli } from './spawn-cli.js'

// Issue 31: `--timeline FILE` through the built binary (dist/cli, what `bin` and `npm start`
// run; the test run builds it when stale). The phases are answered on the sandbox clock,
// moved through the control API: no real waiting.
const FREE = { authorization: 'Bearer sandbox-free' }
let dir: string

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'petstore-timeline-bundle-'))
})
afterAll(() => {
  killAllChildren()
  rmSync(dir, { recursive: true, force: true })
})

const fileOf = (name: string, text: string): string => {
  const file = join(dir, name)
  writeFileSync(file, text)
  return file
}

const statusOf = async (origin: string, path = '/v1/pets?limit=1'): Promise<number> => {
  const response = await fetch(`${origin}${path}`, { headers: FREE })
  await response.arrayBuffer()
  return response.status
}

const advance = async (origin: string, ms: number): Promise<void> => {
  const moved = await fetch(`${origin}/__sandbox/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advanceMs: ms }),
  })
  expect(moved.status).toBe(200)
}

describe('--timeline FILE in the built CLI', () => {
  it('starts with the file’s timeline and answers its phases as the control API moves the clock', async () => {
    const file = fileOf(
      'incident.json',
      JSON.stringify({
        timeline: [
          { scenario: 'unavailable', forMs: 30_000 },
          { scenario: 'rate-limited', forMs: 60_000 },
          { scenario: 'default', forMs: 1 },
        ],
      }),
    )
    const run = spawnCli(['--port', '0', '--quiet', '--timeline', file], {}, 'bundle')
    const origin = await serverOrigin(run)
    const scenario = (await (await fetch(`${origin}/__sandbox/scenario`)).json()) as {
      name: string
      timeline?: { phases: unknown[]; phase: { index: number; scenario: string } }
    }
    expect(scenario.name).toBe('timeline')
    expect(scenario.timeline?.phases).toHaveLength(3)
    expect(scenario.timeline?.phase).toMatchObject({ index: 0, scenario: 'unavailable' })
    expect(await statusOf(origin)).toBe(503)
    await advance(origin, 30_000)
    expect(await statusOf(origin)).toBe(429)
    await advance(origin, 60_000)
    expect(await statusOf(origin)).toBe(200)
    const journal = (await (await fetch(`${origin}/__sandbox/requests`)).json()) as {
      phase?: { index: number }
    }[]
    expect(journal.map((entry) => entry.phase?.index)).toEqual([0, 1, 2])
    run.child.kill('SIGTERM')
    expect(await run.exited).toBe(0)
  })

  it('takes a bare list of phases, and repeats it with the body form’s "repeat"', async () => {
    const list = fileOf('list.json', '[{ "scenario": "unavailable", "forMs": 1000 }]\n')
    const run = spawnCli(['--port', '0', '--quiet', '--timeline', list], {}, 'bundle')
    const origin = await serverOrigin(run)
    expect(await statusOf(origin)).toBe(503)
    // The last phase holds for good.
    await advance(origin, 5_000)
    expect(await statusOf(origin)).toBe(503)
    run.child.kill('SIGTERM')
    await run.exited

    const repeat = fileOf(
      'repeat.json',
      JSON.stringify({
        timeline: [
          { scenario: 'unavailable', forMs: 1000 },
          { scenario: 'default', forMs: 1000 },
        ],
        repeat: true,
      }),
    )
    const again = spawnCli(['--port', '0', '--quiet', '--timeline', repeat], {}, 'bundle')
    const second = await serverOrigin(again)
    const seen: number[] = []
    for (let i = 0; i < 4; i++) {
      seen.push(await statusOf(second))
      await advance(second, 1000)
    }
    expect(seen).toEqual([503, 200, 503, 200])
    again.child.kill('SIGTERM')
    await again.exited
  })

  it.each([
    ['not JSON', 'bad.json', '{ "timeline": [', /Failed to read --timeline .*bad\.json: .*JSON/],
    [
      'a phase with a negative length',
      'negative.json',
      '[{ "scenario": "unavailable", "forMs": -1 }]',
      /Failed to read --timeline .*negative\.json: .*forMs/,
    ],
    [
      'no phases',
      'empty.json',
      '[]',
      /Failed to read --timeline .*empty\.json: timeline must hold at least one phase/,
    ],
    [
      'an unknown scenario',
      'unknown.json',
      '[{ "scenario": "no-such-scenario", "forMs": 1000 }]',
      /^petstore-sandbox: Failed to read --timeline .*unknown\.json: The timeline is not valid: timeline\[0\]\.scenario "no-such-scenario" is not a scenario a phase can be .*A phase is one of: default, .*commit-then-drop\./,
    ],
  ])(
    'refuses a file with %s: the problem in one line, exit code 2, no server',
    async (_, name, text, message) => {
      const file = fileOf(name, text)
      const run = spawnCli(['--port', '0', '--quiet', '--timeline', file], {}, 'bundle')
      expect(await run.exited).toBe(2)
      expect(run.stderr()).toMatch(message)
      // The problem on one line, then the usage errors' pointer to --help; never a stack trace.
      const lines = run.stderr().trim().split('\n')
      expect(lines).toHaveLength(2)
      expect(lines[0]).toMatch(message)
      expect(lines[1]).toBe('Run "petstore-sandbox --help" for the options.')
      expect(run.stderr()).not.toMatch(/\n\s+at /)
      expect(run.stdout()).not.toContain('serving')
    },
  )

  it('refuses a missing file, naming it (exit code 2)', async () => {
    const missing = join(dir, 'missing.json')
    const run = spawnCli(['--port', '0', '--quiet', '--timeline', missing], {}, 'bundle')
    expect(await run.exited).toBe(2)
    // In words since the one bounded reader (decision 0057), as for the recording and the config.
    expect(run.stderr()).toContain(`Failed to read --timeline ${missing}: no such file.`)
  })
})
