import type { JudgedRequest } from '../../../src/judge/judged-request.js'
import { noExponentialBackoff } from '../../../src/judge/rules/no-exponential-backoff.js'

/** A seeded generator (mulberry32): the same seed, the same runs, on every machine. */
export const seeded = (seed: number): (() => number) => {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

type Random = () => number
/**
 * The waits (ms) of `n` retries, from a base delay, as one kind of client
 * chooses them; `retryAfter` is the failed answers' Retry-After (ms; 0 for none).
 */
type Waits = (n: number, base: number, random: Random, retryAfter: number) => number[]

const between = (random: Random, low: number, high: number): number => low + (high - low) * random()
const each = (n: number, wait: (k: number) => number): number[] =>
  Array.from({ length: n }, (_, k) => wait(k))

/** A kind of back-off and the contract's bound on how often it is flagged. */
export interface BackoffKind {
  name: string
  waits: Waits
  /** Flagged at least this share of runs (a client that does not back off)… */
  atLeast?: number
  /** …or at most this share, for 3 retries and for 4-5 retries. */
  atMost?: { three: number; fourOrFive: number }
  /** The failed answers say Retry-After (1-60 s); without it, they say nothing. */
  retryAfter?: true
}

const never = { three: 0.01, fourOrFive: 0.01 }

/**
 * Contract §18's table (amended 2026-11-27), then the kinds decision 0047 adds
 * (linear growth, exponential capped at a plateau, a tiny additive step), then
 * decision 0052's: failed answers with Retry-After, waited with or without a
 * back-off on top, or ignored by a constant wait.
 */
export const BACKOFF_KINDS: readonly BackoffKind[] = [
  { name: 'constant', waits: (n, base) => each(n, () => base), atLeast: 0.99 },
  {
    name: 'constant +-20%',
    waits: (n, base, r) => each(n, () => base * between(r, 0.8, 1.2)),
    atLeast: 0.99,
  },
  // Zero waits: each retry the next millisecond, the earliest the journal can tell a retry
  // from a request sent at once with the failed one (contract §18: the same instant is concurrent).
  { name: 'zero (the next millisecond)', waits: (n) => each(n, () => 1), atLeast: 0.99 },
  {
    name: 'shrinking (halving +-20%)',
    waits: (n, base, r) => each(n, (k) => ((base * 8) / 2 ** k) * between(r, 0.8, 1.2)),
    atLeast: 0.99,
  },
  {
    name: 'doubling +-20%',
    waits: (n, base, r) => each(n, (k) => base * 2 ** k * between(r, 0.8, 1.2)),
    atMost: never,
  },
  {
    name: 'equal jitter',
    waits: (n, base, r) => each(n, (k) => (base * 2 ** k) / 2 + between(r, 0, (base * 2 ** k) / 2)),
    atMost: never,
  },
  {
    name: 'random factor 1-2',
    waits: (n, base, r) => each(n, (k) => base * 2 ** k * between(r, 1, 2)),
    atMost: never,
  },
  {
    name: 'full jitter',
    waits: (n, base, r) => each(n, (k) => between(r, 0, base * 2 ** k)),
    atMost: { three: 0.1, fourOrFive: 0.02 },
  },
  {
    name: 'decorrelated jitter',
    waits: (n, base, r) => {
      let last = base
      return each(n, () => {
        last = between(r, base, 3 * last)
        return last
      })
    },
    atMost: { three: 0.2, fourOrFive: 0.1 },
  },
  // Added by decision 0047: growth that is not doubling still grows.
  { name: 'linear growth', waits: (n, base) => each(n, (k) => base * (k + 1)), atMost: never },
  {
    name: 'doubling +-20% capped at 8x base (plateau)',
    waits: (n, base, r) => each(n, (k) => base * Math.min(2 ** k, 8) * between(r, 0.8, 1.2)),
    atMost: never,
  },
  // A cap reached after one doubling is near a constant wait: a few runs look constant.
  {
    name: 'doubling +-20% capped at 2x base',
    waits: (n, base, r) => each(n, (k) => base * Math.min(2 ** k, 2) * between(r, 0.8, 1.2)),
    atMost: { three: 0.05, fourOrFive: 0.01 },
  },
  {
    name: 'full jitter capped at 4x base',
    waits: (n, base, r) => each(n, (k) => between(r, 0, base * Math.min(2 ** k, 4))),
    atMost: { three: 0.1, fourOrFive: 0.05 },
  },
  // Growing by a few per cent is a constant wait with a pretence of growth.
  {
    name: 'additive +5% of base',
    waits: (n, base) => each(n, (k) => base * (1 + 0.05 * k)),
    atLeast: 0.99,
  },
  // Added by decision 0052: every failed answer says Retry-After (1-60 s).
  // Waiting it, with jitter or a back-off of one's own on top, is not flagged…
  {
    name: 'Retry-After exactly',
    waits: (n, _base, _r, ra) => each(n, () => ra),
    atMost: never,
    retryAfter: true,
  },
  {
    name: 'Retry-After plus 0-20% of it (axios-retry)',
    waits: (n, _base, r, ra) => each(n, () => ra * between(r, 1, 1.2)),
    atMost: never,
    retryAfter: true,
  },
  {
    name: 'Retry-After plus equal jitter',
    waits: (n, base, r, ra) =>
      each(n, (k) => ra + (base * 2 ** k) / 2 + between(r, 0, (base * 2 ** k) / 2)),
    atMost: never,
    retryAfter: true,
  },
  {
    name: 'Retry-After plus full jitter',
    waits: (n, base, r, ra) => each(n, (k) => ra + between(r, 0, base * 2 ** k)),
    atMost: { three: 0.1, fourOrFive: 0.02 },
    retryAfter: true,
  },
  {
    name: 'Retry-After then doubling',
    waits: (n, base, _r, ra) => each(n, (k) => ra + base * 2 ** k),
    atMost: never,
    retryAfter: true,
  },
  {
    name: 'Retry-After then a random factor 1-2 (p-retry)',
    waits: (n, base, r, ra) => each(n, (k) => ra + base * 2 ** k * between(r, 1, 2)),
    atMost: never,
    retryAfter: true,
  },
  // …a constant wait up to 1.5 times Retry-After cannot be told from it (decision 0052)…
  {
    name: 'constant, 1-1.5x Retry-After',
    waits: (n, _base, r, ra) => {
      const wait = ra * between(r, 1, 1.5)
      return each(n, () => wait)
    },
    atMost: never,
    retryAfter: true,
  },
  // …and a constant wait longer than that ignores it and is flagged (fetch-retry).
  {
    name: 'constant, 2-10x Retry-After',
    waits: (n, _base, r, ra) => {
      const wait = ra * between(r, 2, 10)
      return each(n, () => wait)
    },
    atLeast: 0.99,
    retryAfter: true,
  },
  // Its jitter, on the part past Retry-After, can look like a few runs of
  // "Retry-After plus full jitter": a short run cannot tell them apart.
  {
    name: 'constant +-20%, 2-10x Retry-After',
    waits: (n, _base, r, ra) => {
      const wait = ra * between(r, 2, 10)
      return each(n, () => wait * between(r, 0.8, 1.2))
    },
    atLeast: 0.9,
    retryAfter: true,
  },
]

const T0 = Date.parse('2030-01-01T12:00:00Z')

/**
 * One simulated run as the journal would hold it: a 503 (with `retryAfterMs`'s
 * Retry-After, or none), then `waits.length` retries, each `wait` ms after the
 * answer before it (to the millisecond, as the journal keeps time); every
 * retry fails but the last.
 */
export const runOf = (
  waits: readonly number[],
  retryAfterMs: number | null = null,
): JudgedRequest[] => {
  let at = T0
  const request = (seq: number, ok: boolean): JudgedRequest => ({
    seq,
    at,
    answeredAt: at,
    method: 'GET',
    url: 'http://sandbox.test/v1/pets',
    operation: 'listPets',
    caller: 'key:sand…#00000000',
    keyRef: 'sand…#00000000',
    status: ok ? 200 : 503,
    code: ok ? null : 'service_unavailable',
    fault: undefined,
    aborted: false,
    delivered: true,
    retryAfterMs: ok ? null : retryAfterMs,
    sunsetAt: null,
    requestBody: null,
    responseBody: null,
  })
  const run = [request(1, false)]
  waits.forEach((wait, i) => {
    at += Math.round(wait)
    run.push(request(i + 2, i === waits.length - 1))
  })
  return run
}

/** The share of `runs` seeded runs of `kind` with `retries` retries that the rule flags. */
export const flagRate = (
  kind: BackoffKind,
  retries: number,
  runs: number,
  seed: number,
): number => {
  const random = seeded(seed)
  let flagged = 0
  for (let i = 0; i < runs; i++) {
    // A base delay from 100 ms to 5 s, log-uniform: libraries' defaults span this.
    const base = 100 * 50 ** random()
    // Retry-After in whole seconds, log-uniform from 1 to 60 (a 503's few, a minute's window).
    const retryAfter = kind.retryAfter === true ? 1_000 * Math.round(60 ** random()) : null
    const run = runOf(kind.waits(retries, base, random, retryAfter ?? 0), retryAfter)
    if (noExponentialBackoff(run).length > 0) flagged++
  }
  return flagged / runs
}
