import type { SimpleFaker as Faker } from '@faker-js/faker'
import type { JsonSchema } from './openapi-document.js'

/**
 * Bodies for the binary media of an OpenAPI document's answers (decision
 * 0067): small files a client can decode, made by code here (no asset is
 * copied) and the same for the same seed. PNG, GIF and JPEG images, a PDF
 * page, a WAV sound, an SVG picture; any other type gets seeded bytes.
 * Runtime-free: no `node:*` module (the PNG's zlib stream is a stored
 * deflate block, which every inflater reads).
 */

/** Bytes of a binary answer when the schema declares no length: the generated files are smaller. */
const DEFAULT_BYTES = 256

/** Media types answered as text (the rest are binary): text, JSON, XML, YAML, JavaScript, CSV, forms. */
const TEXTUAL =
  /^(text\/|application\/([\w.+-]*[+/])?(json|xml|yaml|x-yaml|javascript|ecmascript|csv|x-www-form-urlencoded|graphql|sql)\b|.*[+](json|xml)\b|image\/svg\+xml\b)/i

/**
 * True for a media type whose body is bytes, not text: images, sound,
 * video, fonts, `application/pdf`, `application/octet-stream`, archives.
 *
 * @example
 * isBinaryMedia('image/png') // true
 * isBinaryMedia('text/csv; charset=utf-8') // false
 */
export const isBinaryMedia = (type: string): boolean => !TEXTUAL.test(type.trim())

/**
 * True for a schema that describes bytes rather than text: OpenAPI 3.0's
 * `type: string, format: binary`, or 3.1's `contentMediaType` without
 * `contentEncoding` (a base64 string is text).
 *
 * @example
 * isBinarySchema({ type: 'string', format: 'binary' }) // true
 */
export const isBinarySchema = (schema: JsonSchema | undefined): boolean =>
  schema !== undefined &&
  (schema.type === 'string' || schema.type === undefined) &&
  (schema.format === 'binary' ||
    (typeof schema.contentMediaType === 'string' && schema.contentEncoding === undefined))

// CRC-32 (ISO 3309, as PNG uses it), by table.
const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

const crc32 = (bytes: Uint8Array): number => {
  let c = 0xffffffff
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] as number) ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

const adler32 = (bytes: Uint8Array): number => {
  let a = 1
  let b = 0
  for (const byte of bytes) {
    a = (a + byte) % 65521
    b = (b + a) % 65521
  }
  return ((b << 16) | a) >>> 0
}

const concat = (parts: readonly (Uint8Array | readonly number[])[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

const ascii = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff)
const u32be = (n: number): number[] => [
  (n >>> 24) & 255,
  (n >>> 16) & 255,
  (n >>> 8) & 255,
  n & 255,
]
const u32le = (n: number): number[] => [
  n & 255,
  (n >>> 8) & 255,
  (n >>> 16) & 255,
  (n >>> 24) & 255,
]
const u16le = (n: number): number[] => [n & 255, (n >>> 8) & 255]

/** A zlib stream of `data` in stored (uncompressed) deflate blocks. */
const zlibStored = (data: Uint8Array): Uint8Array => {
  const blocks: (Uint8Array | number[])[] = [[0x78, 0x01]]
  for (let at = 0; at < data.length || at === 0; at += 65_535) {
    const part = data.subarray(at, at + 65_535)
    const last = at + 65_535 >= data.length
    blocks.push([last ? 1 : 0, ...u16le(part.length), ...u16le(~part.length & 0xffff)], part)
    if (last) break
  }
  blocks.push(u32be(adler32(data)))
  return concat(blocks)
}

const pngChunk = (type: string, data: Uint8Array): Uint8Array => {
  const typed = concat([ascii(type), data])
  return concat([u32be(data.length), typed, u32be(crc32(typed))])
}

/** The size of the room a padding chunk or segment must fill, at least `least` bytes. */
const room = (padTo: number, size: number, least: number): number =>
  padTo > size ? Math.max(padTo - size, least) : 0

/**
 * An 8x8 RGB PNG: a checkerboard of two seeded colours. `padTo` bytes at
 * least, with a `tEXt` comment chunk when asked for more.
 */
const png = (faker: Faker, padTo: number): Uint8Array => {
  const colours = [0, 1].map(() => [0, 1, 2].map(() => faker.number.int(255)))
  const rows: number[] = []
  for (let y = 0; y < 8; y += 1) {
    rows.push(0) // filter: none
    for (let x = 0; x < 8; x += 1) rows.push(...(colours[(x + y) % 2] as number[]))
  }
  const header = pngChunk(
    'IHDR',
    Uint8Array.from([...u32be(8), ...u32be(8), 8, 2, 0, 0, 0]), // 8 bits, RGB, no interlace
  )
  const image = pngChunk('IDAT', zlibStored(Uint8Array.from(rows)))
  const end = pngChunk('IEND', new Uint8Array(0))
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
  const size = 8 + header.length + image.length + end.length
  const pad = room(padTo, size, 12 + 8)
  const comment =
    pad === 0 ? new Uint8Array(0) : pngChunk('tEXt', ascii(`Comment\0${'.'.repeat(pad - 20)}`))
  return concat([signature, header, comment, image, end])
}

/** A 1x1 GIF89a of one seeded colour, padded by a comment extension. */
const gif = (faker: Faker, padTo: number): Uint8Array => {
  const colour = [0, 1, 2].map(() => faker.number.int(255))
  const head = [...ascii('GIF89a'), ...u16le(1), ...u16le(1), 0x80, 0, 0, ...colour, 0, 0, 0]
  // Clear code 4, index 0, end code 5, as 3-bit codes: 0x44 0x01.
  const image = [0x2c, ...u16le(0), ...u16le(0), ...u16le(1), ...u16le(1), 0, 2, 2, 0x44, 0x01, 0]
  const size = head.length + image.length + 1
  const pad = room(padTo, size, 5)
  const comment: number[] = []
  if (pad > 0) {
    // 0x21 0xFE, sub-blocks (a length byte, then 1-255 bytes), a zero: `pad` bytes in all.
    comment.push(0x21, 0xfe)
    let left = pad - 3
    while (left > 0) {
      let n = Math.min(255, left - 1)
      if (left - (n + 1) === 1) n -= 1 // never leave one byte: no sub-block is that short
      comment.push(n, ...new Array<number>(n).fill(0x2e))
      left -= n + 1
    }
    comment.push(0)
  }
  return Uint8Array.from([...head, ...comment, ...image, 0x3b])
}

/** A 1x1 grey baseline JPEG (one 8x8 block whose DC is 0), padded by a COM segment. */
const jpeg = (padTo: number): Uint8Array => {
  const segment = (marker: number, data: readonly number[]): number[] => [
    0xff,
    marker,
    ((data.length + 2) >> 8) & 255,
    (data.length + 2) & 255,
    ...data,
  ]
  const oneCode = (tableClass: number): number[] =>
    segment(0xc4, [tableClass, 1, ...new Array<number>(15).fill(0), 0])
  const parts = [
    [0xff, 0xd8],
    segment(0xdb, [0, ...new Array<number>(64).fill(1)]),
    segment(0xc0, [8, 0, 1, 0, 1, 1, 1, 0x11, 0]),
    oneCode(0x00), // DC: category 0 is code `0`
    oneCode(0x10), // AC: end of block is code `0`
    segment(0xda, [1, 1, 0x00, 0, 63, 0]),
    [0x3f], // `0` (DC 0), `0` (end of block), padded with ones
    [0xff, 0xd9],
  ]
  const size = parts.reduce((n, p) => n + p.length, 0)
  // COM segments of 4 to 65,537 bytes each (marker, length, text) after SOI: `pad` bytes in all.
  let left = room(padTo, size, 4)
  while (left > 0) {
    let take = Math.min(left, 65_537)
    if (left - take > 0 && left - take < 4) take -= 4
    parts.splice(1, 0, segment(0xfe, new Array<number>(take - 4).fill(0x2e)))
    left -= take
  }
  return Uint8Array.from(parts.flat())
}

/** A one-page PDF 1.4 that says "petstore-sandbox", its cross-reference table exact; padded by a comment line. */
const pdf = (padTo: number): Uint8Array => {
  const build = (padding: string): string => {
    const text = 'BT /F1 12 Tf 20 50 Td (petstore-sandbox) Tj ET'
    const objects = [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
      `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ]
    let out = `%PDF-1.4\n${padding === '' ? '' : `%${padding}\n`}`
    const offsets: number[] = []
    objects.forEach((body, i) => {
      offsets.push(out.length)
      out += `${i + 1} 0 obj\n${body}\nendobj\n`
    })
    const xref = out.length
    out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
    for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`
    out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
    return out
  }
  const plain = build('')
  const pad = room(padTo, plain.length, 4)
  // The padding line's own `%` and newline are 2 bytes; the startxref figure may grow by one digit.
  let padded = pad === 0 ? plain : build('.'.repeat(pad - 2))
  if (padded.length > padTo && pad > 0)
    padded = build('.'.repeat(pad - 2 - (padded.length - padTo)))
  return ascii(padded)
}

/** A WAV (PCM, 8 bits, mono, 8 kHz) of silence: `padTo` bytes, at least 0.05 s. */
const wav = (padTo: number): Uint8Array => {
  const samples = Math.max(400, padTo - 44)
  return concat([
    ascii('RIFF'),
    u32le(36 + samples),
    ascii('WAVEfmt '),
    u32le(16),
    [1, 0, 1, 0], // PCM, one channel
    u32le(8000),
    u32le(8000),
    [1, 0, 8, 0], // block align 1, 8 bits
    ascii('data'),
    u32le(samples),
    new Uint8Array(samples).fill(128),
  ])
}

const seededBytes = (faker: Faker, length: number): Uint8Array =>
  Uint8Array.from({ length }, () => faker.number.int(255))

/** The byte lengths the schema allows: `minLength` and `maxLength` of a binary string count bytes. */
const lengthsOf = (schema: JsonSchema | undefined): { min: number; max: number } => {
  const min = typeof schema?.minLength === 'number' ? Math.max(0, schema.minLength) : 0
  const max =
    typeof schema?.maxLength === 'number'
      ? Math.max(min, schema.maxLength)
      : Number.POSITIVE_INFINITY
  return { min, max }
}

/**
 * The body of a binary answer: for the media type (`Content-Type` without
 * parameters, lower case) a small file a client decodes, or seeded bytes
 * for a type the sandbox cannot draw; within the schema's `minLength` and
 * `maxLength` (bytes). When the lengths leave no room for the file (a
 * `maxLength` under its size), seeded bytes of an allowed length are answered:
 * the length is what a validator can check.
 *
 * @example
 * const png = binaryBody(faker, 'image/png', undefined) // an 8x8 PNG
 */
export const binaryBody = (
  faker: Faker,
  type: string,
  schema: JsonSchema | undefined,
): Uint8Array => {
  const { min, max } = lengthsOf(schema)
  const made =
    type === 'image/png'
      ? png(faker, min)
      : type === 'image/gif'
        ? gif(faker, min)
        : type === 'image/jpeg' || type === 'image/jpg' || type === 'image/pjpeg'
          ? jpeg(min)
          : type === 'application/pdf'
            ? pdf(min)
            : /^audio\/(wav|wave|x-wav|vnd\.wave)$/.test(type)
              ? wav(min)
              : undefined
  if (made !== undefined && made.length >= min && made.length <= max) return made
  return seededBytes(faker, Math.min(Math.max(min, Math.min(DEFAULT_BYTES, max)), max))
}

/** A small SVG picture (`image/svg+xml` is text): a square of a seeded colour. */
export const svgPicture = (faker: Faker): string => {
  const colour = faker.number.int(0xffffff).toString(16).padStart(6, '0')
  return `<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8" viewBox="0 0 8 8"><rect width="8" height="8" fill="#${colour}"/></svg>\n`
}
