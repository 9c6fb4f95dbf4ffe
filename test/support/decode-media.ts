import { crc32, inflateSync } from 'node:zlib'
import { expect } from 'vitest'

/**
 * Reads a PNG as a decoder does (node:zlib inflates its image data): the
 * signature, every chunk's CRC, IHDR's size and format, and IDAT's rows.
 * Throws (an `expect` failure or zlib's error) on anything else.
 *
 * @example
 * expect(readPng(bytes)).toEqual({ width: 8, height: 8, chunks: ['IHDR', 'IDAT', 'IEND'] })
 */
export const readPng = (
  bytes: Uint8Array,
): { width: number; height: number; chunks: string[]; rows: Buffer } => {
  const buffer = Buffer.from(bytes)
  expect([...buffer.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  const chunks: string[] = []
  const data: Buffer[] = []
  let width = 0
  let height = 0
  let at = 8
  while (at < buffer.length) {
    const length = buffer.readUInt32BE(at)
    const type = buffer.toString('latin1', at + 4, at + 8)
    const body = buffer.subarray(at + 8, at + 8 + length)
    expect(buffer.readUInt32BE(at + 8 + length), `${type}'s CRC`).toBe(
      crc32(buffer.subarray(at + 4, at + 8 + length)),
    )
    chunks.push(type)
    if (type === 'IHDR') {
      width = body.readUInt32BE(0)
      height = body.readUInt32BE(4)
      // 8 bits a sample, RGB, deflate, no filter method, no interlace.
      expect([...body.subarray(8)]).toEqual([8, 2, 0, 0, 0])
    }
    if (type === 'IDAT') data.push(body)
    at += 12 + length
  }
  expect(at).toBe(buffer.length)
  const rows = inflateSync(Buffer.concat(data))
  // Each row: a filter byte and 3 bytes a pixel.
  expect(rows.length).toBe(height * (1 + width * 3))
  return { width, height, chunks, rows }
}

/**
 * Checks a PDF's frame: the header, `%%EOF`, and that `startxref` and every
 * cross-reference offset point where a reader looks (`xref`, `N 0 obj`).
 *
 * @example
 * expect(readPdf(bytes)).toBe(5)
 */
export const readPdf = (bytes: Uint8Array): number => {
  const text = Buffer.from(bytes).toString('latin1')
  expect(text.startsWith('%PDF-1.')).toBe(true)
  expect(text.trimEnd().endsWith('%%EOF')).toBe(true)
  const start = Number(/startxref\n(\d+)\n%%EOF\s*$/.exec(text)?.[1])
  expect(text.slice(start, start + 4)).toBe('xref')
  const entries = [...text.slice(start).matchAll(/^(\d{10}) 00000 n \n/gm)].map((m) => Number(m[1]))
  entries.forEach((offset, i) => {
    expect(text.slice(offset, offset + `${i + 1} 0 obj`.length)).toBe(`${i + 1} 0 obj`)
  })
  return entries.length
}
