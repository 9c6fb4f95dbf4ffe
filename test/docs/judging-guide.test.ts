import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { RULE_IDS } from '../../src/judge/report-client.js'

const guide = readFileSync(new URL('../../docs/judging-the-client.md', import.meta.url), 'utf8')

describe('docs/judging-the-client.md', () => {
  it('starts with the example the test command runs, as it is', () => {
    const example = readFileSync(
      new URL('../../examples/judging/judging.test.ts', import.meta.url),
      'utf8',
    )
    const firstBlock = /```ts\n([\s\S]*?)```/.exec(guide)?.[1]
    expect(firstBlock).toBe(example)
  })

  it('lists every rule of the report, in the report order', () => {
    const rows = [...guide.matchAll(/^\| `([a-z-]+)` \| (?:error|warning)/gm)].map((m) => m[1])
    expect(rows).toEqual(RULE_IDS)
  })

  it('names every field of a match', () => {
    for (const field of ['method', 'path', 'query', 'headers', 'body', 'status', 'operation'])
      expect(guide).toContain(`| \`${field}\` |`)
  })
})
