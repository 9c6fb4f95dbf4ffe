import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { type CliRun, killAllChildren, serverOrigin, spawnCli } from './spawn-cli.js'

// The server-wide journal budget set from the command line, the environment and the config
// file reaches the server: the control API's journal holds no more than it allows, across
// every session, and keeps the newest requests (docs/server.md, decision 0020).

const folder = mkdtempSync(join(tmpdir(), 'petstore-journal-bounds-'))
afterAll(() => {
  killAllChildren()
  rmSync(folder, { recursive: true, force: true })
})

const AUTH = { authorization: 'Bearer sandbox-pro' }

/** Sends one API request in `session`, tagged by an `X-Tag` header, and checks it answered. */
const send = async (origin: string, session: string, tag: string, headers = {}) => {
  const response = await fetch(`${origin}/v1/pets?limit=1&__session=${session}`, {
    headers: { ...AUTH, ...headers, 'x-tag': tag },
  })
  expect(response.status).toBe(200)
  await response.arrayBuffer()
}

/** The tag of every request each session's journal holds, oldest first. */
const journals = async (origin: string, sessions: readonly string[]) => {
  const held: Record<string, string[]> = {}
  for (const session of sessions) {
    const response = await fetch(`${origin}/__sandbox/requests?__session=${session}`)
    expect(response.status).toBe(200)
    const entries = (await response.json()) as {
      seq: number
      request: { headers: Record<string, string> }
    }[]
    held[session] = entries
      .sort((a, b) => a.seq - b.seq)
      .map((entry) => entry.request.headers['x-tag'] ?? '?')
  }
  return held
}

const stop = async (run: CliRun) => {
  run.child.kill('SIGTERM')
  expect(await run.exited).toBe(0)
}

describe('the journal budget on the command line', () => {
  it('--journal-max-entries 3 keeps the 3 newest requests across every session', async () => {
    const run = spawnCli(['--port', '0', '--quiet', '--journal-max-entries', '3'])
    const origin = await serverOrigin(run)
    for (const [session, tag] of [
      ['alpha', 'a1'],
      ['alpha', 'a2'],
      ['beta', 'b1'],
      ['default', 'd1'],
      ['beta', 'b2'],
    ] as const)
      await send(origin, session, tag)
    expect(await journals(origin, ['alpha', 'beta', 'default'])).toEqual({
      alpha: [],
      beta: ['b1', 'b2'],
      default: ['d1'],
    })
    await send(origin, 'alpha', 'a3')
    expect(await journals(origin, ['alpha', 'beta', 'default'])).toEqual({
      alpha: ['a3'],
      beta: ['b2'],
      default: ['d1'],
    })
    await stop(run)
  }, 30_000)

  it('PETSTORE_SANDBOX_JOURNAL_MAX_BYTES bounds the bytes: large requests push the old ones out', async () => {
    // Each entry holds a 2,000-character header: 6,000 bytes leave room for two at most.
    const run = spawnCli(['--port', '0', '--quiet'], {
      PETSTORE_SANDBOX_JOURNAL_MAX_BYTES: '6000',
    })
    const origin = await serverOrigin(run)
    const big = { 'x-padding': 'p'.repeat(2_000) }
    for (const tag of ['r1', 'r2', 'r3', 'r4', 'r5']) await send(origin, 'default', tag, big)
    const held = (await journals(origin, ['default'])).default ?? []
    expect(held.length).toBeGreaterThanOrEqual(1)
    expect(held.length).toBeLessThanOrEqual(2)
    // The newest stay.
    expect(held).toEqual(['r4', 'r5'].slice(2 - held.length))
    await stop(run)
  }, 30_000)

  it('reads journalMaxEntries from the config file, and a flag wins over it', async () => {
    const config = join(folder, 'bounds.json')
    writeFileSync(config, JSON.stringify({ journalMaxEntries: 1, journalMaxBytes: 1_000_000 }))
    const fromFile = spawnCli(['--port', '0', '--quiet', '--config', config])
    const fileOrigin = await serverOrigin(fromFile)
    for (const tag of ['f1', 'f2', 'f3']) await send(fileOrigin, 'default', tag)
    expect(await journals(fileOrigin, ['default'])).toEqual({ default: ['f3'] })
    await stop(fromFile)

    const overridden = spawnCli([
      '--port',
      '0',
      '--quiet',
      '--config',
      config,
      '--journal-max-entries',
      '2',
    ])
    const origin = await serverOrigin(overridden)
    for (const tag of ['o1', 'o2', 'o3']) await send(origin, 'default', tag)
    expect(await journals(origin, ['default'])).toEqual({ default: ['o2', 'o3'] })
    await stop(overridden)
  }, 30_000)

  it('exits 2 naming the flag for a bad value', async () => {
    const run = spawnCli(['--port', '0', '--journal-max-entries', '-1'])
    expect(await run.exited).toBe(2)
    expect(run.stderr()).toContain(
      'petstore-sandbox: Failed to read --journal-max-entries: "-1" must be from 0 to 10000000.',
    )
  }, 30_000)
})
