import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { showBoundedJson } from '../../src/judge/show-bounded-json.js'

describe('showBoundedJson', () => {
  it('writes what JSON.stringify writes while it fits', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const json = JSON.stringify(value)
        expect(showBoundedJson(value, json.length + 10)).toBe(json)
      }),
    )
  })

  it('shows RegExps as written, skips undefined fields, and cuts a long value near the bound', () => {
    expect(showBoundedJson({ name: /^R/, gone: undefined, list: [undefined, 1] }, 100)).toBe(
      '{"name":"/^R/","list":[null,1]}',
    )
    const cut = showBoundedJson(
      Array.from({ length: 1_000_000 }, (_, i) => i),
      120,
    )
    expect(cut.startsWith('[0,1,2,')).toBe(true)
    expect(cut.length).toBeLessThan(140)
  })

  it('shows a value nested 100,000 deep without overflowing the stack', () => {
    let deep: unknown = 1
    for (let i = 0; i < 100_000; i++) deep = i % 2 === 0 ? [deep] : { a: deep }
    expect(() => JSON.stringify(deep)).toThrow(RangeError)
    expect(showBoundedJson(deep, 120).length).toBeLessThanOrEqual(130)
  })
})
