import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

// The README's first snippet runs as written: it is first-snippet.test.ts,
// which vitest runs like any test, byte for byte.
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
const snippet = readFileSync(new URL('./first-snippet.test.ts', import.meta.url), 'utf8')

describe('the README', () => {
  it('opens "Use it in a test suite" with first-snippet.test.ts, byte for byte', () => {
    const section = readme.slice(readme.indexOf('## Use it in a test suite'))
    const first = /```ts\n([\s\S]*?)```/.exec(section)?.[1]
    expect(first).toBe(snippet)
  })
})
