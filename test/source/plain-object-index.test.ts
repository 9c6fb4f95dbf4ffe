import { describe, expect, it } from 'vitest'
import { findPlainObjectIndex } from '../support/find-plain-object-index.js'

// Issue 24: every id the API accepts (`__proto__`, `constructor`, `toString`, `.`, `..`)
// survives, so nothing in src/ indexes a plain object with user input: Map, Set,
// Object.fromEntries and ownRecord (src/contract/own-record.ts) keep such keys.
describe('no plain object indexed by user input in src/', () => {
  it('finds none', () => {
    expect(findPlainObjectIndex({ root: 'src' })).toEqual([])
  }, 120_000)

  it('finds a write, a read, an `in` and a zod record keyed by any string', () => {
    const found = findPlainObjectIndex({
      files: {
        'fixture/index.ts': [
          "import * as z from 'zod/mini'",
          'export const put = (id: string, all: Record<string, number>) => { all[id] = 1 }',
          'export const get = (id: string, all: { [k: string]: number }) => all[id]',
          'export const has = (id: string, all: object) => id in all',
          'export const schema = z.record(z.string(), z.number())',
          "export const fine = (all: Record<string, number>, xs: number[], i: number, k: 'a' | 'b') => [all.a, all['b'], xs[i], all[k], new Map<string, number>().get('x')]",
          'export const copy = (from: Record<string, number>) => { const to: Record<string, number> = {}; for (const name in from) to[name] = from[name] as number; return to }',
          'export const own = (all: Record<string, number>, id: string) => (Object.hasOwn(all, id) ? all[id] : undefined)',
        ].join('\n'),
      },
    })
    expect(found.map((f) => f.at)).toEqual([
      'fixture/index.ts:2',
      'fixture/index.ts:3',
      'fixture/index.ts:4',
      'fixture/index.ts:5',
    ])
  }, 60_000)
})
