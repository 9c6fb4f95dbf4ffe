import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpTarget } from '../conformance/targets/http-target.js'
import { jsonOf, sendRaw } from './support/send-raw.js'

// Contract §15 and issue 10 point 5: every error the server itself produces is a JSON Error.
const target = createHttpTarget()
beforeAll(() => target.start())
afterAll(() => target.stop())

const auth = 'Authorization: Bearer sandbox-free\r\n'
const expectJsonError = (text: string, status: number, code: string): void => {
  expect(text).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `))
  expect(text.toLowerCase()).toContain('content-type: application/json')
  expect(jsonOf(text)).toMatchObject({ code, status })
}

describe('errors the server produces before the API sees a request', () => {
  it('answers an HTTP/1.1 request without Host with 400 invalid_parameter', async () => {
    const { text } = await sendRaw(target.origin, `GET /v1/pets HTTP/1.1\r\n${auth}\r\n`)
    expectJsonError(text, 400, 'invalid_parameter')
    expect(jsonOf(text)).toMatchObject({ details: [{ field: 'Host' }] })
  })

  it('still answers an HTTP/1.0 request without Host', async () => {
    const { text } = await sendRaw(target.origin, `GET /v1/pets?limit=1 HTTP/1.0\r\n${auth}\r\n`)
    expect(text).toMatch(/^HTTP\/1\.1 200 /)
  })

  it('answers an Expect other than 100-continue with 417 expectation_failed', async () => {
    const { text } = await sendRaw(
      target.origin,
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\nExpect: foo\r\nContent-Length: 0\r\n${auth}\r\n`,
    )
    expectJsonError(text, 417, 'expectation_failed')
  })

  it('answers CONNECT with 501 not_implemented and closes', async () => {
    const { text, closed } = await sendRaw(
      target.origin,
      'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
    )
    expectJsonError(text, 501, 'not_implemented')
    expect(closed).toBe(true)
  })

  it.each([
    ['gzip, chunked', '5\r\nhello\r\n0\r\n\r\n'],
    ['gzip', ''],
    ['chunked, identity', ''],
  ])('answers Transfer-Encoding: %s with 501 not_implemented', async (encoding, body) => {
    const { text } = await sendRaw(
      target.origin,
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: ${encoding}\r\n${auth}\r\n${body}`,
    )
    expectJsonError(text, 501, 'not_implemented')
  })

  // Past 64 KiB node stops parsing and the answer is 431 (see the README's limits).
  it.each([20_000, 60_000])(
    'answers a %d-byte request target with 414 uri_too_long',
    async (size) => {
      const { text } = await sendRaw(
        target.origin,
        `GET /v1/pets?x=${'a'.repeat(size)} HTTP/1.1\r\nHost: x\r\n${auth}\r\n`,
      )
      expectJsonError(text, 414, 'uri_too_long')
    },
  )

  it.each([20_000, 100_000])(
    'answers %d bytes of headers with 431 header_too_large',
    async (size) => {
      const { text } = await sendRaw(
        target.origin,
        `GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Filler: ${'a'.repeat(size)}\r\n${auth}\r\n`,
      )
      expectJsonError(text, 431, 'header_too_large')
    },
  )

  it('answers the same limits on the control API', async () => {
    const { text } = await sendRaw(
      target.origin,
      `GET /__sandbox/keys?x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
    )
    expectJsonError(text, 414, 'uri_too_long')
  })

  it.each(['/v1/pets', '/v1/nope', '/__sandbox/keys', '/elsewhere'])(
    'sends no body to HEAD %s, whatever the status',
    async (path) => {
      const { text } = await sendRaw(
        target.origin,
        `HEAD ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Connection: close\r\n\r\n`,
      )
      expect(text).toMatch(/^HTTP\/1\.1 [0-9]{3} /)
      expect(text.slice(text.indexOf('\r\n\r\n') + 4)).toBe('')
    },
  )

  it('answers a Connection: close request once, ignoring bytes after it (found by the fuzz suite)', async () => {
    const { text } = await sendRaw(
      target.origin,
      `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n{"junk":1}`,
    )
    expect(text).toMatch(/^HTTP\/1\.1 200 /)
    expect(text.match(/HTTP\/1\.1 /g)).toHaveLength(1)
  })

  it('keeps serving a plain request after all of these', async () => {
    const pets = await target.send({
      method: 'GET',
      path: '/pets?limit=1',
      headers: { authorization: 'Bearer sandbox-free' },
    })
    expect(pets.status).toBe(200)
  })
})
