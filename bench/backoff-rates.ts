// Prints the flag rates of no-exponential-backoff by kind of back-off as the
// Markdown table of docs/judging-the-client.md: `npx tsx bench/backoff-rates.ts`.
// The same seeded runs as test/judge/backoff-simulation.test.ts.
import { BACKOFF_KINDS, flagRate } from '../test/judge/support/backoff-kinds.js'

const RUNS = 10_000
const percent = (rate: number): string => `${(rate * 100).toFixed(2)}%`
console.log('| kind | bound | 3 retries | 4 retries | 5 retries |')
console.log('|---|---|---|---|---|')
for (const [k, kind] of BACKOFF_KINDS.entries()) {
  const bound =
    kind.atLeast !== undefined
      ? `>= ${percent(kind.atLeast)}`
      : `<= ${percent(kind.atMost?.three ?? 0)} / ${percent(kind.atMost?.fourOrFive ?? 0)}`
  const rates = [3, 4, 5].map((retries) =>
    percent(flagRate(kind, retries, RUNS, 1_000 * k + retries)),
  )
  console.log(`| ${kind.name} | ${bound} | ${rates.join(' | ')} |`)
}
