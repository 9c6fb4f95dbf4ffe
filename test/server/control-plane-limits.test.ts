import { request as httpRequest, type IncomingMessage } from 'node:http'
import { connect } from 'node:net'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { createControlAccess } from '../../src/server/control/create-control-access.js'
import { createSandboxServer, type SandboxServer } from '../../src/server/index.js'
import { SERVER_LIMITS } from '../../src/server/server-limits.js'
import { killAllChildren, spawnCli } from './spawn-cli.js'
import { sendHttp } from './support/send-raw.js'

// Issue 24 point 10: wrong admin tokens are throttled per address, dashboard streams are
// capped, a stream whose reader stopped reading loses its socket, and the CLI warns about a
// short admin token.
const TOKEN = 'right-admin-token-0123456789'
const servers: SandboxServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
})
afterAll(() => killAllChildren())

const start = async (options: Parameters<typeof createSandboxServer>[0] = {}) => {
  const app = createSandboxServer({ onError: () => {}, shutdownGraceMs: 200, ...options })
  servers.push(app)
  const { url } = await app.listen(0, '127.0.0.1')
  return { app, url }
}

const fakeRequest = (address: string, token?: string): IncomingMessage =>
  ({
    socket: { remoteAddress: address },
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    rawHeaders: token === undefined ? [] : ['Authorization', `Bearer ${token}`],
  }) as unknown as IncomingMessage

describe('wrong admin tokens', () => {
  it('refuses an address with 429 and Retry-After after 10 wrong tokens in a minute, the right one too', async () => {
    let now = Date.parse('2030-01-01T00:00:00Z')
    const { url } = await start({ adminToken: TOKEN, now: () => now })
    const as = (token: string, path = '/__sandbox/keys') =>
      sendHttp(url, { path, headers: { authorization: `Bearer ${token}` } })
    for (let i = 0; i < SERVER_LIMITS.maxWrongAdminTokens; i++) {
      // The dashboard's data routes count with the control API's.
      const answer = await as(`guess-${i}`, i % 2 === 0 ? '/__sandbox/keys' : '/__sandbox/quotas')
      expect(answer.status).toBe(403)
    }
    const refused = await as('guess-x')
    expect(refused.status).toBe(429)
    expect(refused.headers['retry-after']).toBe('60')
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'rate_limit_exceeded', status: 429 })
    // Guessing right now tells nothing.
    expect((await as(TOKEN)).status).toBe(429)
    now += 30_000
    expect((await as(TOKEN)).headers['retry-after']).toBe('30')
    now += 30_000
    expect((await as(TOKEN)).status).toBe(200)
  })

  it('counts per address (per IPv6 /64), forgets the oldest past its cap, and never counts a missing token', () => {
    const access = createControlAccess({ adminToken: TOKEN, now: () => 0 })
    for (let i = 0; i < 10; i++) access.check(fakeRequest('2001:db8:0:1::1', `g${i}`))
    expect(access.check(fakeRequest('2001:db8:0:1::ffff', TOKEN))?.code).toBe('rate_limit_exceeded')
    expect(access.check(fakeRequest('2001:db8:0:2::1', TOKEN))).toBeUndefined()
    for (let i = 0; i < 50; i++)
      expect(access.check(fakeRequest('192.0.2.7'))?.code).toBe('forbidden')
    // 10,000 other addresses push the first out of memory.
    for (let i = 0; i < SERVER_LIMITS.maxThrottledAddresses; i++)
      access.check(fakeRequest(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, 'wrong'))
    expect(access.check(fakeRequest('2001:db8:0:1::1', TOKEN))).toBeUndefined()
  })
})

/** Opens the event stream; resolves with its status once the head arrives. */
const openStream = (url: string) =>
  new Promise<{ status: number; retryAfter: string | undefined; close(): void }>(
    (resolve, reject) => {
      const req = httpRequest(`${url}/__sandbox/events`, { agent: false }, (res) => {
        const retryAfter = res.headers['retry-after'] as string | undefined
        res.resume()
        resolve({ status: res.statusCode ?? 0, retryAfter, close: () => req.destroy() })
      })
      req.on('error', (error: NodeJS.ErrnoException) =>
        error.code === 'ECONNRESET' ? undefined : reject(error),
      )
      req.end()
    },
  )

describe('dashboard streams', () => {
  it('answers 503 stream_limit_reached with Retry-After past 100 open streams, and opens again once one closes', async () => {
    const { url } = await start()
    const open = []
    for (let i = 0; i < SERVER_LIMITS.maxDashboardStreams; i++) open.push(await openStream(url))
    expect(open.every((s) => s.status === 200)).toBe(true)
    const refused = await sendHttp(url, { path: '/__sandbox/events' })
    expect(refused.status).toBe(503)
    expect(refused.headers['retry-after']).toBe('5')
    expect(refused.headers['content-security-policy']).toContain("frame-ancestors 'none'")
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'stream_limit_reached', status: 503 })
    open.pop()?.close()
    await vi.waitFor(async () => expect((await openStream(url)).status).toBe(200), {
      timeout: 5_000,
    })
    for (const stream of open) stream.close()
  })

  it('destroys the socket of a stream whose reader stopped reading', async () => {
    const { app, url } = await start()
    const connections = () =>
      new Promise<number>((resolve) => app.server.getConnections((_e, n) => resolve(n)))
    const { port } = new URL(url)
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write('GET /__sandbox/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    })
    socket.on('error', () => {})
    // The reader reads the head, then stops.
    await new Promise<void>((resolve) => socket.once('data', () => resolve()))
    socket.pause()
    expect(await connections()).toBe(1)
    // Requests with large bodies fill the stream faster than nobody reads it.
    const body = JSON.stringify({ name: 'x'.repeat(100), categoryId: 1, pad: 'p'.repeat(8_000) })
    await vi.waitFor(
      async () => {
        for (let i = 0; i < 100; i++)
          await app.sandbox.handle({
            method: 'POST',
            url: 'http://127.0.0.1/v1/pets',
            headers: {
              authorization: 'Bearer sandbox-enterprise',
              'content-type': 'application/json',
              'x-padding': 'h'.repeat(4_000),
            },
            body,
          })
        expect(await connections()).toBe(0)
      },
      { timeout: 30_000, interval: 1 },
    )
    socket.destroy()
  }, 40_000)
})

describe('a short admin token', () => {
  it('starts with a warning on stderr, and without one for a long token', async () => {
    const short = spawnCli(['--port', '0', '--quiet', '--admin-token', 'a'])
    const long = spawnCli(['--port', '0', '--quiet'], { PETSTORE_SANDBOX_ADMIN_TOKEN: TOKEN })
    await vi.waitFor(() => expect(short.stdout()).toContain('serving'), { timeout: 20_000 })
    await vi.waitFor(() => expect(long.stdout()).toContain('serving'), { timeout: 20_000 })
    expect(short.stderr()).toContain('warning: the admin token has 1 characters')
    expect(short.stderr()).toContain('at least 16 random characters')
    expect(long.stderr()).not.toContain('warning')
    short.child.kill('SIGTERM')
    long.child.kill('SIGTERM')
    expect(await short.exited).toBe(0)
    expect(await long.exited).toBe(0)
  }, 30_000)
})
