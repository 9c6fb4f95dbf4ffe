import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpTarget } from '../conformance/targets/http-target.js'
import { jsonOf, sendRaw } from './support/send-raw.js'

// Contract §15, issue 24 point 9: a request target past node's 64 KiB parse limit is still
// 414 uri_too_long (not 431), and too many header lines are 431 header_too_large even when
// each is short: node keeps only the first lines, so they are counted as well as bytes.
const target = createHttpTarget()
beforeAll(() => target.start())
afterAll(() => target.stop())

const auth = 'Authorization: Bearer sandbox-free\r\n'
const statusOf = (text: string): number => Number(/^HTTP\/1\.1 (\d{3}) /.exec(text)?.[1])

/** Writes the pieces one after another (each flushed before the next), then reads the answer. */
const sendInPieces = (origin: string, pieces: readonly string[]): Promise<string> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(origin)
    let text = ''
    const socket = connect(Number(port), hostname, async () => {
      socket.setNoDelay(true)
      for (const piece of pieces) {
        if (socket.destroyed || text !== '') break
        await new Promise<void>((done) => socket.write(piece, () => done()))
      }
    })
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString()
    })
    socket.on('close', () => resolve(text))
    socket.on('error', (error: NodeJS.ErrnoException) =>
      // The server may close while pieces are still being written.
      error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error),
    )
  })

describe('a request target past the parse limit', () => {
  it('answers a 1 MB target sent at once with 414 uri_too_long', async () => {
    const { text, closed } = await sendRaw(
      target.origin,
      `GET /v1/pets?x=${'a'.repeat(1_048_576)} HTTP/1.1\r\nHost: x\r\n${auth}\r\n`,
    )
    expect(statusOf(text)).toBe(414)
    expect(jsonOf(text)).toMatchObject({ code: 'uri_too_long', status: 414 })
    expect(closed).toBe(true)
  })

  it('answers a 1 MB target sent in 1 KB pieces with 414 uri_too_long', async () => {
    const pieces = ['GET /v1/pets?x=', ...Array<string>(1_024).fill('b'.repeat(1_024))]
    const text = await sendInPieces(target.origin, pieces)
    expect(statusOf(text)).toBe(414)
    expect(jsonOf(text)).toMatchObject({ code: 'uri_too_long' })
  })

  it('still answers 431 to a 100 KB header value sent in pieces after a few headers', async () => {
    const pieces = [
      `GET /v1/pets HTTP/1.1\r\nHost: x\r\n${auth}X-Filler: `,
      ...Array<string>(100).fill('c '.repeat(512)),
      '\r\n\r\n',
    ]
    const text = await sendInPieces(target.origin, pieces)
    expect(statusOf(text)).toBe(431)
    expect(jsonOf(text)).toMatchObject({ code: 'header_too_large' })
  })
})

describe('the number of header lines', () => {
  it.each([101, 5_000])(
    'answers %d short header lines with 431 header_too_large',
    async (lines) => {
      const filler = Array.from({ length: lines - 2 }, (_, i) => `X-${i}: 1\r\n`).join('')
      const { text } = await sendRaw(
        target.origin,
        `GET /v1/pets HTTP/1.1\r\nHost: x\r\n${auth}${filler}\r\n`,
      )
      expect(statusOf(text)).toBe(431)
      expect(jsonOf(text)).toMatchObject({
        code: 'header_too_large',
        message: expect.stringContaining('100 header lines'),
      })
    },
  )

  it('answers a request of exactly 100 header lines', async () => {
    // Host, Authorization, 97 fillers and Connection.
    const filler = Array.from({ length: 97 }, (_, i) => `X-${i}: 1\r\n`).join('')
    const { text } = await sendRaw(
      target.origin,
      `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: x\r\n${auth}${filler}Connection: close\r\n\r\n`,
    )
    expect(statusOf(text)).toBe(200)
  })
})
