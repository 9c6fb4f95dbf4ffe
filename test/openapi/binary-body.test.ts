import { describe, expect, it } from 'vitest'
import { SeedFaker } from '../../src/db/seed-faker.js'
import { binaryBody, isBinaryMedia, isBinarySchema } from '../../src/openapi/binary-body.js'
import { readPdf, readPng } from '../support/decode-media.js'

// The files of binary answers within a schema's byte lengths (decision 0067); decoded over
// HTTP in Chromium by test/server/openapi-binary-media.test.ts.
const faker = () => {
  const f = new SeedFaker()
  f.seed(42)
  return f
}
const body = (type: string, schema?: Record<string, unknown>) =>
  binaryBody(faker(), type, schema === undefined ? undefined : { type: 'string', ...schema })

describe('binaryBody', () => {
  it.each([0, 300, 1_000, 70_000])('pads each file to minLength %i inside its format', (min) => {
    const png = body('image/png', { format: 'binary', minLength: min })
    expect(png.length).toBeGreaterThanOrEqual(min)
    expect(readPng(png).chunks).toEqual(
      min === 0 ? ['IHDR', 'IDAT', 'IEND'] : ['IHDR', 'tEXt', 'IDAT', 'IEND'],
    )
    const pdf = body('application/pdf', { minLength: min })
    expect(pdf.length).toBeGreaterThanOrEqual(min)
    expect(readPdf(pdf)).toBe(5)
    const gif = body('image/gif', { minLength: min })
    expect(gif.length).toBe(Math.max(min, 35))
    expect([gif[0], gif.at(-1)]).toEqual([0x47, 0x3b])
    const jpeg = body('image/jpeg', { minLength: min })
    expect(jpeg.length).toBeGreaterThanOrEqual(min)
    expect([jpeg[0], jpeg[1], jpeg.at(-2), jpeg.at(-1)]).toEqual([0xff, 0xd8, 0xff, 0xd9])
    expect(body('audio/wav', { minLength: min }).length).toBe(Math.max(min, 444))
  })

  it('answers seeded bytes within the lengths when maxLength leaves no room for the file', () => {
    const small = body('image/png', { maxLength: 10 })
    expect(small.length).toBe(10)
    expect(body('image/png', { maxLength: 10 })).toEqual(small)
    expect(body('application/octet-stream').length).toBe(256)
    expect(body('application/zip', { minLength: 3, maxLength: 5 }).length).toBe(5)
  })

  it('tells binary media and schemas from text', () => {
    expect(
      ['image/png', 'application/pdf', 'application/octet-stream', 'video/mp4', 'font/woff2'].map(
        isBinaryMedia,
      ),
    ).toEqual([true, true, true, true, true])
    expect(
      [
        'text/csv; charset=utf-8',
        'application/json',
        'application/problem+json',
        'application/xml',
        'application/x-yaml',
        'image/svg+xml',
        'application/x-www-form-urlencoded',
      ].map(isBinaryMedia),
    ).toEqual([false, false, false, false, false, false, false])
    expect(isBinarySchema({ type: 'string', format: 'binary' })).toBe(true)
    expect(isBinarySchema({ type: 'string', contentMediaType: 'image/png' })).toBe(true)
    expect(
      isBinarySchema({ type: 'string', contentMediaType: 'image/png', contentEncoding: 'base64' }),
    ).toBe(false)
    expect(isBinarySchema({ type: 'string', format: 'byte' })).toBe(false)
  })
})
