import { createServer as createHttpServer } from 'node:http'
import { createServer as createNetServer, type Server, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { verify } from '../../src/server/index.js'

const servers: Server[] = []
const sockets: Socket[] = []
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy()
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))))
})

const listen = async <S extends Server>(server: S): Promise<number> => {
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

const KEY = 'sandbox-enterprise'

describe('verify when the target does not answer', () => {
  it('fails the first check cleanly on a closed port, sends nothing more, and redacts nothing it needs', async () => {
    const probe = createNetServer()
    const port = await listen(probe)
    await new Promise((resolve) => probe.close(resolve))
    servers.pop()
    const report = await verify({ target: `http://127.0.0.1:${port}/v1`, key: KEY })
    const first = report.checks.find((c) => c.id === 'spec.auth.valid-key')
    expect(first?.pass).toBe(false)
    expect(first?.message).toMatch(
      new RegExp(
        `^GET http://127.0.0.1:${port}/v1/pets\\?limit=100: connection refused by 127.0.0.1:${port}`,
      ),
    )
    expect(report.requests).toBe(1)
    expect(report.stopped?.reason).toBe('no-answer')
    expect(report.passed).toBe(false)
    expect(report.checks).toHaveLength(1)
    expect(report.skipped.find((s) => s.id === 'spec.get.found')?.reason).toMatch(
      /^Not run: .*got no answer/,
    )
  })

  it('fails within its timeout against a server that accepts and never answers', async () => {
    let connections = 0
    const port = await listen(
      createNetServer((socket) => {
        connections++
        sockets.push(socket)
      }),
    )
    const report = await verify({ target: `http://127.0.0.1:${port}/v1`, key: KEY, timeoutMs: 300 })
    expect(report.checks.find((c) => c.id === 'spec.auth.valid-key')?.message).toMatch(
      /no answer within 300 ms \(--timeout\)/,
    )
    expect(report.requests).toBe(1)
    expect(connections).toBe(1)
    expect(report.stopped?.message).toMatch(/got no answer .*verify stopped/)
  })

  it('fails with a TLS message when https meets a server that does not speak TLS', async () => {
    const port = await listen(createHttpServer((_req, res) => res.end('plain')))
    const report = await verify({
      target: `https://127.0.0.1:${port}/v1`,
      key: KEY,
      timeoutMs: 2_000,
    })
    expect(report.checks.find((c) => c.id === 'spec.auth.valid-key')?.message).toMatch(/TLS failed/)
    expect(report.passed).toBe(false)
  })

  it('reports a server that answers HTML as broken checks, without crashing', async () => {
    const port = await listen(
      createHttpServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' })
        res.end('<!doctype html><title>Welcome</title>')
      }),
    )
    const report = await verify({ target: `http://127.0.0.1:${port}/v1`, key: KEY })
    const failed = report.checks.filter((c) => !c.pass).map((c) => c.id)
    expect(failed).toEqual(
      expect.arrayContaining([
        'spec.responses.json',
        'spec.responses.content-type',
        'spec.rate-limit.headers',
        'spec.auth.missing-key',
        'spec.list.default-limit',
      ]),
    )
    expect(report.checks.find((c) => c.id === 'spec.responses.json')?.message).toMatch(
      /The 200 body is not JSON: "<!doctype html>/,
    )
    expect(report.stopped).toBeNull()
    expect(report.passed).toBe(false)
  })
})
