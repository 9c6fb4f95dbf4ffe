import { describe, expect, it } from 'vitest'
import { createSchemaCompiler } from '../../src/openapi/compile-schemas.js'

// ajv keys a compiled `pattern` by its RegExp's toString(): the RE2 testers must each print
// their own pattern, or every pattern after the first of a document runs as the first one
// (Vercel's `POST /v1/log-drains` refused every `url`, `^(http|https)?://`; decision 0066).
describe("a document's patterns, each on its own RE2 tester", () => {
  it('checks each pattern as itself, whatever was compiled before it with the same compiler', () => {
    const compile = createSchemaCompiler('3.1')
    const url = compile({ type: 'string', pattern: '^(http|https)?://' })
    const word = compile({ type: 'string', pattern: '^[a-z]+$' })
    const inObject = compile({
      type: 'object',
      properties: { url: { type: 'string', pattern: '^(http|https)?://' } },
    })
    expect(url('https://example.com/a')).toBe(true)
    expect(url('abc')).not.toBe(true)
    expect(word('abc')).toBe(true)
    expect(word('https://example.com/a')).not.toBe(true)
    expect(inObject({ url: 'https://example.com/a' })).toBe(true)
    expect(inObject({ url: 'abc' })).not.toBe(true)
  })
})
