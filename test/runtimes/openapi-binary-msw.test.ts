import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { parse } from 'yaml'
import { setupSandbox } from '../../src/runtimes/node.js'
import { readPdf, readPng } from '../support/decode-media.js'

// Binary media through the MSW adapter (decision 0067): the same bytes as the server sends.
const document = parse(readFileSync('test/openapi/fixtures/binary-media.yaml', 'utf8')) as Record<
  string,
  unknown
>
const sandbox = setupSandbox({ openapi: document })
beforeAll(async () => {
  sandbox.listen()
  await sandbox.ready
})
afterAll(() => sandbox.close())

const KEY = { authorization: 'Bearer sandbox-free' }
const get = async (path: string, method = 'GET') => {
  const response = await fetch(`https://api.example.test/v1${path}`, { method, headers: KEY })
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    length: response.headers.get('content-length'),
    bytes: new Uint8Array(await response.arrayBuffer()),
  }
}

it('answers image/png with a PNG a decoder reads, and its Content-Length', async () => {
  const png = await get('/avatar.png')
  expect([png.status, png.type, Number(png.length)]).toEqual([200, 'image/png', png.bytes.length])
  expect(readPng(png.bytes)).toMatchObject({ width: 8, height: 8 })
  const head = await get('/avatar.png', 'HEAD')
  expect([head.status, head.length, head.bytes.length]).toEqual([200, png.length, 0])
})

it('answers a PDF and seeded octet-stream bytes of the declared length', async () => {
  const pdf = await get('/invoice')
  expect(pdf.type).toBe('application/pdf')
  expect(readPdf(pdf.bytes)).toBe(5)
  const blob = await get('/export')
  expect([blob.type, blob.length, blob.bytes.length]).toEqual([
    'application/octet-stream',
    '1000',
    1000,
  ])
})

it('takes a binary upload where the document declares application/octet-stream', async () => {
  const png = (await get('/avatar.png')).bytes
  const upload = await fetch('https://api.example.test/v1/uploads', {
    method: 'POST',
    headers: { ...KEY, 'content-type': 'application/octet-stream' },
    body: png,
  })
  expect(upload.status).toBe(201)
  const form = new FormData()
  form.append('file', new Blob([png], { type: 'image/png' }), 'avatar.png')
  const multipart = await fetch('https://api.example.test/v1/forms', {
    method: 'POST',
    headers: KEY,
    body: form,
  })
  expect(multipart.status).toBe(204)
})
