import { describe, expect, it } from 'vitest'
import { decodeCursor, encodeCursor } from '../../src/operations/cursor.js'

const base64Url = (text: string) =>
  btoa(text).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')

describe('cursor', () => {
  it.each([0, 1, 25, 99_999, Number.MAX_SAFE_INTEGER])('round-trips the position %d', (id) => {
    expect(decodeCursor(encodeCursor(id))).toBe(id)
  })

  it('encodes as URL-safe text without padding', () => {
    for (const id of [1, 12, 123, 1234, 12345, Number.MAX_SAFE_INTEGER]) {
      expect(encodeCursor(id)).toMatch(/^[A-Za-z0-9_-]+$/)
    }
  })

  it.each([
    ['an empty token', ''],
    ['plain text', 'hello'],
    ['characters outside base64url', 'YWZ0ZXI6NQ=='],
    ['another prefix', base64Url('before:5')],
    ['a negative position', base64Url('after:-1')],
    ['a fraction', base64Url('after:1.5')],
    ['a position past 2^53 - 1', base64Url('after:9007199254740992')],
    ['a position with leading zeros', base64Url('after:05')],
    ['a position in exponent form', base64Url('after:1e3')],
    ['an empty position', base64Url('after:')],
    ['trailing text', base64Url('after:5 ')],
    ['a token longer than 64 characters', 'A'.repeat(65)],
    ['a truncated token', encodeCursor(12345).slice(0, -1)],
  ])('refuses %s', (_, cursor) => {
    expect(decodeCursor(cursor)).toBeUndefined()
  })

  it('refuses every one-character change of a valid cursor', () => {
    const cursor = encodeCursor(42)
    for (let i = 0; i < cursor.length; i++) {
      for (const replacement of ['A', 'z', '-', '_']) {
        const changed = `${cursor.slice(0, i)}${replacement}${cursor.slice(i + 1)}`
        if (changed !== cursor) expect(decodeCursor(changed), changed).not.toBe(42)
      }
    }
  })
})
