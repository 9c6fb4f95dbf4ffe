import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { verify } from '../../src/server/index.js'
import { runVerify } from '../../src/verify/run-verify.js'

// Issue 31 item 7: verify against a target that keeps its quota at 0, and one whose
// answers are huge or endless: the waits are bounded in all (--max-wait), the bodies
// read up to --max-body, and the report says so.

describe('verify waits for the quota within --max-wait, in all', () => {
  it('stops after about a minute against a target that always says "0 remaining, resets in 59 s"', async () => {
    let now = Date.parse('2030-01-01T00:00:00Z')
    const sleeps: number[] = []
    let sent = 0
    const report = await runVerify({
      baseUrl: 'https://api.example.test/v1',
      key: 'k',
      now: () => now,
      sleep: async (ms) => {
        sleeps.push(ms)
        now += ms
      },
      transport: async () => {
        sent++
        return {
          status: 200,
          headers: {
            'content-type': 'application/json',
            'x-ratelimit-limit': '60',
            'x-ratelimit-remaining': '0',
            'x-ratelimit-reset': String(Math.floor(now / 1000) + 59),
          },
          body: '[]',
        }
      },
    })
    // Once 59 s (and the 250 ms margin), never before each request (16 minutes before).
    expect(sleeps).toEqual([59_250])
    expect(sent).toBe(2)
    expect(report.stopped?.reason).toBe('quota')
    expect(report.stopped?.message).toMatch(
      /after verify had waited 59 s for it; waiting more would pass --max-wait \(65 s\)/,
    )
  })

  it('never waits with maxWaitMs 0, and waits as long as it is told with more', async () => {
    const now = Date.parse('2030-01-01T00:00:00Z')
    const quota = {
      status: 200,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 30) },
      body: '[]',
    }
    const stopped = await runVerify({
      baseUrl: 'https://api.example.test/v1',
      key: 'k',
      now: () => now,
      maxWaitMs: 0,
      sleep: () => Promise.reject(new Error('must not sleep')),
      transport: async () => quota,
    })
    expect(stopped.stopped?.message).toMatch(/past --max-wait \(0 s\)/)
  })
})

describe('verify reads answer bodies up to --max-body', () => {
  const servers: Server[] = []
  afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))))
  /** A target whose every answer is an endless JSON array; counts what it wrote. */
  const endless = async () => {
    const state = { written: 0 }
    const server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      const chunk = Buffer.alloc(64 * 1024, 0x20)
      const pump = (): void => {
        while (!res.destroyed) {
          state.written += chunk.length
          if (!res.write(chunk)) {
            res.once('drain', pump)
            return
          }
        }
      }
      req.socket.on('close', () => res.destroy())
      pump()
    })
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, state }
  }

  it('gives up on an endless answer at the cap, fails that check and says --max-body', async () => {
    const target = await endless()
    const report = await verify({
      target: target.url,
      key: 'k-123456',
      maxBodyBytes: 65_536,
      timeoutMs: 3_000,
    })
    expect(report.requests).toBe(1)
    expect(report.stopped?.reason).toBe('no-answer')
    const failed = report.checks.find((c) => !c.pass)
    expect(failed?.message).toMatch(/passed 65536 bytes \(--max-body\)/)
    // Read no further than the cap (the socket's buffers aside), not until the 3 s timeout.
    expect(target.state.written).toBeLessThan(32 * 1024 * 1024)
  })

  it('refuses a declared Content-Length over the cap without reading it, and checks the option', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000000' })
      res.end('['.padEnd(5_000_000, ' '))
    })
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
    const report = await verify({ target: url, key: 'k-123456' })
    expect(report.checks.find((c) => !c.pass)?.message).toMatch(/passed 1048576 bytes/)
    await expect(verify({ target: url, key: 'k-123456', maxBodyBytes: 10 })).rejects.toThrow(
      /maxBodyBytes/,
    )
  })
})
