import { execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createSandboxServer } from '../../src/server/create-sandbox-server.js'
import { MAX_REPLAYED_HEAD_BYTES } from '../../src/upstream/check-replay-archive.js'
import { type CliRun, killAllChildren, serverOrigin, spawnCli } from './spawn-cli.js'

// Issue 37, items 8, 12, 16 and 18, through the CLI as a user starts it: a refusal is one
// short line on stderr and an exit code (2: the arguments; 1: a file's content), never a
// hang, a stack trace or a server that starts and cannot be used.
afterAll(killAllChildren)

const dir = mkdtempSync(join(tmpdir(), 'cli-edges-'))
const fifo = (name: string): string => {
  const path = join(dir, name)
  execFileSync('mkfifo', [path])
  return path
}

/** The exit code and stderr's lines; a CLI that hangs fails the test by its timeout. */
const refusal = async (run: CliRun): Promise<{ code: number | string; lines: string[] }> => {
  const code = await run.exited
  return { code, lines: run.stderr().trimEnd().split('\n') }
}

const HELP = 'Run "petstore-sandbox --help" for the options.'

describe('files the CLI reads: only regular files, bounded (item 16)', { timeout: 60_000 }, () => {
  it('refuses --timeline /dev/zero at once (it read 3 GB) and a FIFO (it hung)', async () => {
    for (const path of ['/dev/zero', fifo('outage.json')]) {
      const { code, lines } = await refusal(spawnCli(['--port', '0', '--timeline', path]))
      expect(code).toBe(2)
      expect(lines).toEqual([
        `petstore-sandbox: Failed to read --timeline ${path}: it is not a regular file (a directory, FIFO, socket or device). Give a JSON file.`,
        HELP,
      ])
    }
  })

  it('refuses a --timeline file past 1 MiB without parsing it', async () => {
    const big = join(dir, 'big-timeline.json')
    writeFileSync(big, `[${' '.repeat(1024 * 1024)}]`)
    const { code, lines } = await refusal(spawnCli(['--port', '0', '--timeline', big]))
    expect(code).toBe(2)
    expect(lines[0]).toBe(
      `petstore-sandbox: Failed to read --timeline ${big}: it is larger than 1 MiB, the most this file may hold. Give a JSON file.`,
    )
  })

  it('cuts a long scenario name quoted in a refusal (it was one line of 100,475 characters)', async () => {
    const file = join(dir, 'long-name.json')
    writeFileSync(file, JSON.stringify([{ scenario: 'x'.repeat(100_000), forMs: 1000 }]))
    const { code, lines } = await refusal(spawnCli(['--port', '0', '--timeline', file]))
    expect(code).toBe(2)
    expect(lines).toHaveLength(2)
    expect(lines[0]).toContain(`"${'x'.repeat(80)}…" (100,000 characters) is not a scenario`)
    expect(lines[0]?.length).toBeLessThan(1000)
  })

  it('refuses --config, --data, --replay and --record when they name a FIFO or a device', async () => {
    const config = await refusal(spawnCli(['--config', fifo('sandbox.json')]))
    expect(config.code).toBe(2)
    expect(config.lines[0]).toMatch(
      /^petstore-sandbox: Failed to read the config file .*sandbox\.json: it is not a regular file \(a directory, FIFO, socket or device\)\.$/,
    )
    const module = await refusal(spawnCli(['--config', fifo('sandbox.config.mjs')]))
    expect(module.code).toBe(2)
    expect(module.lines[0]).toMatch(/sandbox\.config\.mjs: it is not a regular file/)

    const data = await refusal(spawnCli(['--port', '0', '--data', '/dev/zero']))
    expect(data.code).toBe(1)
    expect(data.lines).toEqual([
      'petstore-sandbox: Failed to read the data file /dev/zero: it is not a regular file (a directory, FIFO, socket or device). Pass the path of a JSON file.',
    ])

    for (const path of ['/dev/zero', fifo('replay.har')]) {
      const replay = await refusal(spawnCli(['--port', '0', '--replay', path]))
      expect(replay.code).toBe(1)
      expect(replay.lines).toHaveLength(1)
      expect(replay.lines[0]).toContain(
        `Failed to read the recording ${path}: it is not a regular file (a directory, FIFO, socket or device).`,
      )
    }

    const recordTo = fifo('record.har')
    const record = await refusal(
      spawnCli(['--port', '0', '--upstream', 'http://127.0.0.1:9', '--record', recordTo]),
    )
    expect(record.code).toBe(1)
    expect(record.lines).toEqual([
      `petstore-sandbox: Failed to record to ${recordTo}: it is not a regular file (a directory, FIFO, socket or device).`,
    ])
  })
})

const entry = (headers: { name: string; value: string }[]) => ({
  request: { method: 'GET', url: 'https://staging.test/v1/pets', headers: [] },
  response: { status: 200, headers, content: { mimeType: 'application/json', text: '[]' } },
})
const harOf = (...entries: unknown[]) => ({ log: { version: '1.2', entries } })

describe('a replay whose answer no client could read (item 8)', { timeout: 60_000 }, () => {
  it('refuses a recording whose answer has 100,000 headers at start, naming the entry', async () => {
    const file = join(dir, 'many-headers.har')
    const many = Array.from({ length: 100_000 }, (_, i) => ({ name: `X-H${i}`, value: 'v' }))
    writeFileSync(file, JSON.stringify(harOf(entry([]), entry(many))))
    const { code, lines } = await refusal(spawnCli(['--port', '0', '--replay', file]))
    expect(code).toBe(1)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(
      `Failed to read the recording ${file}: entry 2 (GET https://staging.test/v1/pets): response headers take more than 12288 bytes (100,000 headers)`,
    )
    expect(lines[0]?.length).toBeLessThan(600)
  })

  it("serves headers up to the bound, which Node's fetch and node:http still read", async () => {
    // Fill the bound exactly: `name: value` CRLF, as written.
    const headers: { name: string; value: string }[] = []
    let left = MAX_REPLAYED_HEAD_BYTES
    for (let i = 0; left > 0; i++) {
      const name = `X-Recorded-${i}`
      const room = left - name.length - 4
      const value = 'v'.repeat(Math.max(0, Math.min(200, room)))
      if (room < 0 || (room > 200 && room - 200 < `X-Recorded-${i + 1}`.length + 4)) {
        // The last header takes what is left.
        headers.push({ name, value: 'v'.repeat(Math.max(0, room)) })
        break
      }
      headers.push({ name, value })
      left -= name.length + value.length + 4
    }
    const used = headers.reduce((n, h) => n + h.name.length + h.value.length + 4, 0)
    expect(used).toBe(MAX_REPLAYED_HEAD_BYTES)
    const app = createSandboxServer({ upstream: { replay: harOf(entry(headers)) } })
    try {
      const { url } = await app.listen(0, '127.0.0.1')
      const answer = await fetch(`${url}/v1/pets`, {
        headers: { authorization: 'Bearer sandbox-free' },
      })
      expect(answer.status).toBe(200)
      expect(answer.headers.get('x-recorded-0')).toBe(headers[0]?.value)
      const raw = await new Promise<number>((resolve, reject) => {
        request(`${url}/v1/pets`, { headers: { authorization: 'Bearer sandbox-free' } }, (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        })
          .on('error', reject)
          .end()
      })
      expect(raw).toBe(200)
      // One more byte of recorded headers is refused.
      const over = [
        ...headers.slice(0, -1),
        { ...headers.at(-1), name: headers.at(-1)?.name ?? '', value: `${headers.at(-1)?.value}v` },
      ]
      expect(() => createSandboxServer({ upstream: { replay: harOf(entry(over)) } })).toThrow(
        /response headers take more than 12288 bytes/,
      )
    } finally {
      await app.close()
    }
  })
})

describe('keys that are scenario keys (item 18)', { timeout: 60_000 }, () => {
  it('refuses --key sandbox-scenario-unavailable=enterprise at start, on one line', async () => {
    const { code, lines } = await refusal(
      spawnCli(['--port', '0', '--key', 'sandbox-scenario-unavailable=enterprise']),
    )
    expect(code).toBe(2)
    expect(lines).toEqual([
      'petstore-sandbox: Failed to configure key "sandbox-scenario-unavailable": keys starting with "sandbox-scenario-" are the scenario keys (sandbox-scenario-NAME answers as scenario NAME on the free plan); choose another name.',
      HELP,
    ])
  })

  it("refuses the config file's keys the same way", async () => {
    const config = join(dir, 'scenario-key.json')
    writeFileSync(config, JSON.stringify({ keys: { 'sandbox-scenario-slow': 'pro' } }))
    const { code, lines } = await refusal(spawnCli(['--port', '0', '--config', config]))
    expect(code).toBe(2)
    expect(lines[0]).toContain(
      'Failed to configure key "sandbox-scenario-slow": keys starting with',
    )
  })
})

describe('the start banner (item 12)', { timeout: 60_000 }, () => {
  it('lists the operations added from --openapi', async () => {
    const run = spawnCli(['--port', '0', '--openapi', 'examples/openapi/petstore-extras.yaml'])
    await serverOrigin(run)
    const banner = run.stdout()
    expect(banner).toContain(
      '  Added:    9 operations from examples/openapi/petstore-extras.yaml\n',
    )
    expect(banner).toMatch(/\n {4}GET {5}\/v1\/categories\n {4}POST {4}\/v1\/categories\n/)
    expect(banner).toContain('\n    GET     /v1/store/inventory\n')
    run.child.kill('SIGTERM')
    await run.exited
  })

  it('has no Added lines without a document', async () => {
    const run = spawnCli(['--port', '0'])
    await serverOrigin(run)
    expect(run.stdout()).not.toContain('Added:')
    run.child.kill('SIGTERM')
    await run.exited
  })
})
