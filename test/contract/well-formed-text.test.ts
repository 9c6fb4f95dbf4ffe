import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isWellFormedText } from '../../src/contract/pet.js'

/** ES2024's own answer (Node 20 has it; the lib types of this project are ES2023). */
const nativeIsWellFormed = (value: string): boolean =>
  (value as unknown as { isWellFormed(): boolean }).isWellFormed()

/** Any UTF-16 code unit, lone surrogate halves included. */
const CODE_UNIT = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit))

describe('isWellFormedText', () => {
  it.each([
    ['', true],
    ['Rex', true],
    ['🐶 Zoë', true],
    ['\ud800', false],
    ['Rex\udc00', false],
    ['\udc3d\ud836', false],
    ['\ud83d\udc36\ud83d', false],
  ])('says %j is well-formed: %s', (value, expected) => {
    expect(isWellFormedText(value)).toBe(expected)
  })

  it('agrees with String.prototype.isWellFormed on any string of UTF-16 code units', () => {
    fc.assert(
      fc.property(fc.string({ unit: CODE_UNIT }), fc.string({ unit: 'grapheme' }), (a, b) => {
        for (const value of [a, b, `${a}${b}`, `${b}\ud800`, `\udfff${a}`])
          expect(isWellFormedText(value)).toBe(nativeIsWellFormed(value))
      }),
      { numRuns: 500 },
    )
  })
})
