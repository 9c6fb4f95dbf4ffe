import { request } from 'node:http'
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpTarget } from '../conformance/targets/http-target.js'

const target = createHttpTarget()
beforeAll(() => target.start())
afterAll(() => target.stop())

/** Sends raw bytes (a string as UTF-8) and resolves with everything the server answers before closing. */
const raw = (bytes: string | Uint8Array): Promise<string> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(target.origin)
    const socket = connect(Number(port), hostname, () => socket.end(bytes))
    let text = ''
    socket.on('data', (c: Buffer) => {
      text += c.toString()
    })
    socket.on('close', () => resolve(text))
    socket.on('error', reject)
  })

const jsonBodyOf = (response: string): { code: string; status: number } =>
  JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4))

describe('the server on the wire', () => {
  it.each([
    ['a header line without a colon', 'GET /v1/pets HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'],
    ['a request line that is not HTTP', 'HELLO\r\n\r\n'],
    [
      'a body shorter than its chunk size says',
      'POST /v1/pets HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
    ],
  ])('answers %s with a JSON Error body and closes', async (_name, bytes) => {
    const response = await raw(bytes)
    expect(response).toMatch(/^HTTP\/1\.1 400 /)
    expect(response).toContain('Content-Type: application/json')
    expect(jsonBodyOf(response)).toMatchObject({ code: 'invalid_parameter', status: 400 })
  })

  it.each([
    ['an unknown method', 'BREW /v1/pets HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['an HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'],
    [
      'a chunk size that is not hexadecimal',
      'POST /v1/pets HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
    ],
  ])('answers %s with 400 invalid_parameter whose field is (request)', async (_name, bytes) => {
    const response = await raw(bytes)
    expect(response).toMatch(/^HTTP\/1\.1 400 /)
    expect(jsonBodyOf(response)).toMatchObject({
      code: 'invalid_parameter',
      details: [{ field: '(request)', message: 'must be a valid HTTP/1.1 request' }],
    })
  })

  it('answers an HTTP/1.1 request without Host with 400 invalid_parameter whose field is Host', async () => {
    const response = await raw('GET /v1/pets HTTP/1.1\r\nConnection: close\r\n\r\n')
    expect(response).toMatch(/^HTTP\/1\.1 400 /)
    expect(jsonBodyOf(response)).toMatchObject({
      code: 'invalid_parameter',
      details: [{ field: 'Host', message: 'is required in HTTP/1.1' }],
    })
  })

  it('shows a UTF-8 header value as written in a message (regression: X-Sandbox-Scenario: ✓ read "â…")', async () => {
    const head = 'GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer sandbox-free\r\n'
    const scenario = await raw(`${head}X-Sandbox-Scenario: ✓ Zoë\r\nConnection: close\r\n\r\n`)
    expect(scenario).toMatch(/^HTTP\/1\.1 400 /)
    expect(jsonBodyOf(scenario)).toMatchObject({ code: 'unknown_scenario' })
    expect((jsonBodyOf(scenario) as unknown as { message: string }).message).toMatch(
      /^Unknown scenario "✓ Zoë"\. Valid scenarios: default, /,
    )
    const expectation = await raw(`${head}Expect: ✓\r\nConnection: close\r\n\r\n`)
    expect(expectation).toMatch(/^HTTP\/1\.1 417 /)
    expect(expectation).toContain(
      '"message":"Expect \\"✓\\" is not supported; only 100-continue is."',
    )
    // Bytes that are not UTF-8 (latin1 é) are shown one character per byte, as before.
    const latin1 = Buffer.concat([
      Buffer.from(`${head}X-Sandbox-Scenario: caf`),
      Buffer.from([0xe9]),
      Buffer.from('\r\nConnection: close\r\n\r\n'),
    ])
    expect(await raw(latin1)).toContain('Unknown scenario \\"café\\"')
  })

  it('answers a malformed Host header through the core, with its own address in links', async () => {
    const response = await raw(
      'GET /v1/pets?limit=1 HTTP/1.1\r\nHost: a b/c\r\nAuthorization: Bearer sandbox-free\r\nConnection: close\r\n\r\n',
    )
    expect(response).toMatch(/^HTTP\/1\.1 200 /)
    expect(response).toContain(`Link: <${target.origin}/v1/pets?limit=1&cursor=`)
  })

  it('answers invalid percent-encoding in the path and query with JSON errors', async () => {
    const auth = { authorization: 'Bearer sandbox-free' }
    const pet = await fetch(`${target.origin}/v1/pets/%zz`, { headers: auth })
    expect([400, 404]).toContain(pet.status)
    expect(pet.headers.get('content-type')).toContain('application/json')
    const other = await fetch(`${target.origin}/%E0%A4%A`)
    expect(other.status).toBe(404)
    expect(await other.json()).toMatchObject({ code: 'route_not_found' })
  })

  it('answers an absolute-form request target like its path', async () => {
    const response = await raw(
      'GET http://elsewhere.test/v1/pets?limit=1 HTTP/1.1\r\nHost: elsewhere.test\r\nAuthorization: Bearer sandbox-free\r\nConnection: close\r\n\r\n',
    )
    expect(response).toMatch(/^HTTP\/1\.1 200 /)
  })

  it('answers 413 from Content-Length without reading a 50 MB body, and closes the connection', async () => {
    const { hostname, port } = new URL(target.origin)
    const result = await new Promise<{
      status: number
      sent: number
      connection: string | undefined
      body: string
    }>((resolve, reject) => {
      let sent = 0
      const req = request({
        host: hostname,
        port,
        method: 'POST',
        path: '/v1/pets',
        headers: {
          authorization: 'Bearer sandbox-free',
          'content-type': 'application/json',
          'content-length': 50_000_000,
        },
      })
      req.on('response', (res) => {
        let body = ''
        res.on('data', (c: Buffer) => {
          body += c.toString()
        })
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, sent, connection: res.headers.connection, body }),
        )
      })
      req.on('error', reject)
      const chunk = Buffer.alloc(64 * 1024, 32)
      // Send the first 1 MB only; the answer must not wait for the rest.
      for (let i = 0; i < 16; i++) {
        req.write(chunk)
        sent += chunk.byteLength
      }
    })
    expect(result.status).toBe(413)
    expect(result.connection).toBe('close')
    expect(JSON.parse(result.body)).toMatchObject({ code: 'payload_too_large', status: 413 })
  })

  it('answers 413 to a chunked body once it passes 64 KiB', async () => {
    const big = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 40; i++) controller.enqueue(new Uint8Array(4096).fill(32))
        controller.close()
      },
    })
    const response = await fetch(`${target.origin}/v1/pets`, {
      method: 'POST',
      headers: { authorization: 'Bearer sandbox-free', 'content-type': 'application/json' },
      body: big,
      duplex: 'half',
    } as RequestInit)
    expect(response.status).toBe(413)
  })

  it('destroys the socket for the network-error scenario, and the server keeps serving', async () => {
    const headers = { authorization: 'Bearer sandbox-free' }
    await expect(
      fetch(`${target.origin}/v1/pets?__scenario=network-error`, { headers }),
    ).rejects.toThrow()
    const after = await fetch(`${target.origin}/v1/pets?limit=1`, { headers })
    expect(after.status).toBe(200)
  })

  it('holds the timeout scenario only up to the server bound, then destroys the socket', async () => {
    const started = performance.now()
    await expect(
      fetch(`${target.origin}/v1/pets?__scenario=timeout`, {
        headers: { authorization: 'Bearer sandbox-free' },
      }),
    ).rejects.toThrow()
    // The target's bound is 2 s; the request must neither answer nor hang past it.
    expect(performance.now() - started).toBeLessThan(5_000)
  })

  it('counts anonymous requests against the client address', async () => {
    await target.controls.reset()
    const response = await fetch(`${target.origin}/v1/pets`)
    expect(response.status).toBe(401)
    expect(response.headers.get('x-ratelimit-remaining')).toBe('59')
    const journal = (await target.control('GET', '/requests')) as { status: number }[]
    expect(journal.at(-1)?.status).toBe(401)
  })
})
