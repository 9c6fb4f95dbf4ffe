import { describe, expect, it } from 'vitest'
import { BACKOFF_KINDS, flagRate } from './support/backoff-kinds.js'

// Contract §18 (amended 2026-11-27): the flag rates of no-exponential-backoff by
// kind of back-off, over 10,000 seeded runs of each kind for 3, 4 and 5 retries:
// the contract's table, then the kinds decisions 0047 and 0052 add (0052: failed
// answers with Retry-After). Deterministic (seeded); the measured rates are in
// docs/judging-the-client.md (`npx tsx bench/backoff-rates.ts` prints them).
const RUNS = 10_000

describe('no-exponential-backoff flag rates (10,000 seeded runs of each kind)', () => {
  for (const [k, kind] of BACKOFF_KINDS.entries()) {
    it(`flags "${kind.name}" within its bounds for 3, 4 and 5 retries`, () => {
      const rates = [3, 4, 5].map((retries) => flagRate(kind, retries, RUNS, 1_000 * k + retries))
      for (const [i, rate] of rates.entries()) {
        if (kind.atLeast !== undefined)
          expect(rate, `${i + 3} retries`).toBeGreaterThanOrEqual(kind.atLeast)
        if (kind.atMost !== undefined) {
          const bound = i === 0 ? kind.atMost.three : kind.atMost.fourOrFive
          expect(rate, `${i + 3} retries`).toBeLessThanOrEqual(bound)
        }
      }
    })
  }
})
