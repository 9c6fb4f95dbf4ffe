import { describe, expect, it } from 'vitest'
import { readHeaderText } from '../../src/http/read-header-text.js'

/** A string as node:http and Fetch hand over header bytes: one character per byte. */
const asReceived = (text: string): string => Buffer.from(text, 'utf8').toString('latin1')

describe('readHeaderText', () => {
  it.each(['✓', 'Zoë', '日本語', '🐈 cat'])('reads the UTF-8 bytes of %s as written', (text) => {
    expect(readHeaderText(asReceived(text))).toBe(text)
  })

  it('keeps ASCII, true latin1 (not UTF-8) and a string with wider characters as they are', () => {
    expect(readHeaderText('slow')).toBe('slow')
    expect(readHeaderText('caf\u00e9')).toBe('caf\u00e9')
    expect(readHeaderText('✓ \u00e2')).toBe('✓ \u00e2')
    expect(readHeaderText('')).toBe('')
  })
})
