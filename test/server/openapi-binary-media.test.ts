import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandboxServer, type SandboxServer } from '../../src/server/index.js'
import { launchChromium } from '../support/browser/launch-chromium.js'
import { readPdf, readPng } from '../support/decode-media.js'

// Binary media of a user's document over HTTP (decision 0067): bytes a client decodes, with
// their Content-Type and Content-Length; uploads taken; the journal, HAR and Pact keep them.
const DOCUMENT = 'test/openapi/fixtures/binary-media.yaml'
const KEY = { authorization: 'Bearer sandbox-free' }

describe('binary media of an OpenAPI document, over HTTP', () => {
  let app: SandboxServer<string>
  let base = ''
  let browser: Browser
  beforeAll(async () => {
    app = createSandboxServer({ openapi: DOCUMENT })
    base = (await app.listen(0, '127.0.0.1')).url
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser.close()
    await app.close()
  })

  const get = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${base}/v1${path}`, {
      ...init,
      headers: { ...KEY, ...init.headers },
    })
    const bytes = new Uint8Array(await response.arrayBuffer())
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      length: response.headers.get('content-length'),
      bytes,
    }
  }

  /** Chromium's own decoders (libpng, libjpeg-turbo, its GIF reader): the image's width and height. */
  const decodeInChromium = async (bytes: Uint8Array, type: string): Promise<number[]> => {
    const page = await browser.newPage()
    try {
      return await page.evaluate(
        async ({ data, type }) => {
          const bitmap = await createImageBitmap(new Blob([new Uint8Array(data)], { type }))
          return [bitmap.width, bitmap.height]
        },
        { data: [...bytes], type },
      )
    } finally {
      await page.close()
    }
  }

  it('answers image/png with a PNG a decoder reads, and its Content-Length', async () => {
    const png = await get('/avatar.png')
    expect([png.status, png.type, Number(png.length)]).toEqual([200, 'image/png', png.bytes.length])
    const read = readPng(png.bytes)
    expect([read.width, read.height, read.chunks]).toEqual([8, 8, ['IHDR', 'IDAT', 'IEND']])
    expect(await decodeInChromium(png.bytes, 'image/png')).toEqual([8, 8])
    // The same bytes every time (the seed), and HEAD gives the length without them.
    expect((await get('/avatar.png')).bytes).toEqual(png.bytes)
    const head = await get('/avatar.png', { method: 'HEAD' })
    expect([head.status, head.length, head.bytes.length]).toEqual([200, png.length, 0])
  })

  it('answers GIF, JPEG and an image range with images Chromium decodes', async () => {
    const gif = await get('/avatar.gif')
    expect([gif.type, Number(gif.length)]).toEqual(['image/gif', gif.bytes.length])
    expect(await decodeInChromium(gif.bytes, 'image/gif')).toEqual([1, 1])
    const jpeg = await get('/avatar.jpg')
    expect([jpeg.type, Number(jpeg.length)]).toEqual(['image/jpeg', jpeg.bytes.length])
    expect(await decodeInChromium(jpeg.bytes, 'image/jpeg')).toEqual([1, 1])
    const range = await get('/thumbnail')
    expect(range.type).toBe('image/png')
    expect(readPng(range.bytes).width).toBe(8)
  })

  it('answers a PDF whose cross-references hold, and a WAV for an audio range', async () => {
    const pdf = await get('/invoice')
    expect([pdf.type, Number(pdf.length)]).toEqual(['application/pdf', pdf.bytes.length])
    expect(readPdf(pdf.bytes)).toBe(5)
    const wav = await get('/chime')
    expect(wav.type).toBe('audio/wav')
    const view = Buffer.from(wav.bytes)
    expect([view.toString('latin1', 0, 4), view.toString('latin1', 8, 16)]).toEqual([
      'RIFF',
      'WAVEfmt ',
    ])
    expect(view.readUInt32LE(4)).toBe(wav.bytes.length - 8)
    expect(view.readUInt32LE(40)).toBe(wav.bytes.length - 44)
  })

  it('answers octet-stream with seeded bytes of the declared length; */* binary likewise', async () => {
    const blob = await get('/export')
    expect([blob.type, blob.length, blob.bytes.length]).toEqual([
      'application/octet-stream',
      '1000',
      1000,
    ])
    expect(new Set(blob.bytes).size).toBeGreaterThan(100)
    expect((await get('/export')).bytes).toEqual(blob.bytes)
    const any = await get('/download')
    expect(any.type).toBe('application/octet-stream')
    expect(any.bytes.length).toBeGreaterThan(0)
    expect(() => JSON.parse(Buffer.from(any.bytes).toString('latin1'))).toThrow()
  })

  it('shapes a binary answer’s bytes under a body fault (slow-body sends them whole)', async () => {
    const png = (await get('/avatar.png')).bytes
    const slow = await get('/avatar.png?__scenario=slow-body&__bandwidth=100000')
    expect([slow.status, Number(slow.length)]).toEqual([200, png.length])
    expect(slow.bytes).toEqual(png)
  })

  it('serves a string example of a binary type as its bytes', async () => {
    const logo = await get('/logo')
    expect([logo.type, Buffer.from(logo.bytes).toString()]).toEqual([
      'image/png',
      'not really a PNG',
    ])
  })

  it('draws format: byte strings as valid base64, within their lengths', async () => {
    const token = await get('/token')
    const body = JSON.parse(Buffer.from(token.bytes).toString()) as { blob: string; short: string }
    for (const text of [body.blob, body.short])
      expect(Buffer.from(text, 'base64').toString('base64')).toBe(text)
    expect(body.short.length).toBeGreaterThanOrEqual(4)
    expect(body.short.length).toBeLessThanOrEqual(8)
  })

  it('takes binary and multipart uploads where the document declares them', async () => {
    const png = (await get('/avatar.png')).bytes
    const post = (path: string, body: BodyInit, type?: string) =>
      fetch(`${base}/v1${path}`, {
        method: 'POST',
        headers: { ...KEY, ...(type === undefined ? {} : { 'content-type': type }) },
        body,
      })
    expect((await post('/uploads', png, 'application/octet-stream')).status).toBe(201)
    expect(
      (await post('/uploads', '{"url":"https://x.test/a.png"}', 'application/json')).status,
    ).toBe(201)
    const invalid = await post('/uploads', '{}', 'application/json')
    expect([invalid.status, (await invalid.json()).code]).toEqual([400, 'validation_failed'])
    const other = await post('/uploads', 'hello', 'text/plain')
    expect([other.status, (await other.json()).code]).toEqual([400, 'invalid_content_type'])
    const form = new FormData()
    form.append('file', new Blob([png], { type: 'image/png' }), 'avatar.png')
    expect((await post('/forms', form)).status).toBe(204)
    const missing = await fetch(`${base}/v1/forms`, {
      method: 'POST',
      headers: { ...KEY, 'content-type': 'multipart/form-data; boundary=x' },
    })
    expect([missing.status, (await missing.json()).code]).toEqual([400, 'validation_failed'])
    const tooBig = await post('/uploads', new Uint8Array(70_000), 'application/octet-stream')
    expect([tooBig.status, (await tooBig.json()).code]).toEqual([413, 'payload_too_large'])
  })

  it('keeps a binary answer as base64 in the journal, the HAR and Pact, at its own size', async () => {
    await app.sandbox.reset()
    const png = (await get('/avatar.png')).bytes
    const entries = (await (await fetch(`${base}/__sandbox/requests`)).json()) as {
      response: { body: string; encoding?: string }
    }[]
    const entry = entries.at(-1)
    expect(entry?.response.encoding).toBe('base64')
    expect(Buffer.from(entry?.response.body ?? '', 'base64')).toEqual(Buffer.from(png))
    const har = (await (await fetch(`${base}/__sandbox/requests.har`)).json()) as {
      log: { entries: { response: { content: Record<string, unknown>; bodySize: number } }[] }
    }
    const content = har.log.entries.at(-1)?.response.content
    expect(content).toMatchObject({ size: png.length, mimeType: 'image/png', encoding: 'base64' })
    expect(Buffer.from(String(content?.text), 'base64')).toEqual(Buffer.from(png))
    const pact = (await (
      await fetch(`${base}/__sandbox/pact?consumer=app&provider=media`)
    ).json()) as {
      pact: { interactions: { response: { body?: Record<string, unknown> } }[] }
    }
    const body = pact.pact.interactions.at(-1)?.response.body
    expect(body).toMatchObject({ contentType: 'image/png', encoded: 'base64' })
    expect(Buffer.from(String(body?.content), 'base64')).toEqual(Buffer.from(png))
    // The report and coverage read the same journal.
    const report = await fetch(`${base}/__sandbox/report`)
    expect(report.status).toBe(200)
    await report.arrayBuffer()
    const coverage = await fetch(`${base}/__sandbox/coverage`)
    expect(coverage.status).toBe(200)
    expect(JSON.stringify(await coverage.json())).toContain('avatarPng')
  })
})
