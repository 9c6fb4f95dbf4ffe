/**
 * What the rate limiter costs. Two parts:
 *
 * 1. Per request through the whole core (`sandbox.handle`): the real limiter
 *    against a no-op one that admits everything with fixed headers (every
 *    response carries the headers either way; what is measured is the
 *    counting), in alternating rounds so all see the same machine noise. A
 *    second no-op sandbox gives the noise floor: the real limiter's ratio
 *    should be within it.
 * 2. The limiter alone over 100,000 distinct buckets (one per caller address):
 *    the cost of a take on a new and on a known bucket, and the heap before
 *    filling, when full, and after the day ends and the sweep drops them.
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { createSandbox } from '../src/handlers/create-sandbox.js'
import type { SandboxRequest } from '../src/http/types.js'
import { createRateLimiter, type RateLimiter } from '../src/rate-limit/rate-limiter.js'

const ROUNDS = 41
const REQUESTS_PER_ROUND = 1_000
const BUCKETS = 100_000
const NOON = Date.parse('2030-01-01T12:00:00Z')

/** A limiter that counts nothing and admits everything, with fixed headers. */
export const createNoopLimiter = (): RateLimiter => {
  const headers = {
    'X-RateLimit-Limit': '1000000000',
    'X-RateLimit-Remaining': '999999999',
    'X-RateLimit-Reset': '1893499260',
  }
  return {
    take: () => ({ allowed: true, headers }),
    peek: () => ({ headers }),
    snapshot: () => [],
    reset: () => {},
    size: 0,
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] as number
}

/** Nanoseconds per call of `op`, over `iterations` calls. */
const timeAsync = async (iterations: number, op: () => Promise<unknown>): Promise<number> => {
  const start = performance.now()
  for (let i = 0; i < iterations; i++) {
    if ((await op()) === null) throw new Error('Failed to run the benchmark: handle returned null.')
  }
  return ((performance.now() - start) * 1e6) / iterations
}

const timeSync = (iterations: number, op: (i: number) => unknown): number => {
  const start = performance.now()
  for (let i = 0; i < iterations; i++) op(i)
  return ((performance.now() - start) * 1e6) / iterations
}

/** A real GC for the heap figures, without asking for `node --expose-gc`. */
const collectGarbage = (): (() => void) => {
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as unknown
  if (typeof gc !== 'function') throw new Error('Failed to run the benchmark: no gc() available.')
  return () => {
    gc()
    gc()
  }
}

const megabytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`

const perRequest = async (): Promise<void> => {
  const options = {
    keys: { 'bench-key': { plan: 'enterprise' as const, perMinute: 1e9, perDay: 1e9 } },
    journalSize: 0,
  }
  const sandboxes = [
    { name: 'no-op limiter', sandbox: createSandbox({ ...options, limiter: createNoopLimiter() }) },
    {
      name: 'no-op limiter, again (noise)',
      sandbox: createSandbox({ ...options, limiter: createNoopLimiter() }),
    },
    { name: 'real limiter', sandbox: createSandbox(options) },
  ]
  await Promise.all(sandboxes.map(({ sandbox }) => sandbox.ready))
  const request: SandboxRequest = {
    method: 'GET',
    url: 'http://127.0.0.1:4010/v1/pets?limit=1',
    headers: { authorization: 'Bearer bench-key' },
    body: null,
  }
  // Each round measures all three back to back, in a rotating order, and the
  // ratios are taken within the round: slow drifts of a shared machine cancel.
  const times = sandboxes.map((): number[] => [])
  for (let round = -1; round < ROUNDS; round++) {
    for (let step = 0; step < sandboxes.length; step++) {
      const index = (step + Math.max(0, round)) % sandboxes.length
      const sandbox = sandboxes[index]?.sandbox
      if (sandbox === undefined) continue
      const ns = await timeAsync(REQUESTS_PER_ROUND, () => sandbox.handle(request))
      if (round >= 0) times[index]?.push(ns)
    }
  }
  const ratioTo = (index: number): number =>
    median((times[index] ?? []).map((ns, round) => ns / (times[0]?.[round] ?? ns)))
  console.table(
    sandboxes.map(({ name }, index) => ({
      pipeline: name,
      'µs/request': (median(times[index] ?? []) / 1000).toFixed(2),
      'vs no-op (median of per-round ratios)': `${ratioTo(index).toFixed(3)}×`,
    })),
  )
  const noise = Math.abs(ratioTo(1) - 1)
  const cost = ratioTo(2) - 1
  console.log(
    `The real limiter: ${(cost * 100).toFixed(1)}% per request; two identical no-op sandboxes differ by ${(noise * 100).toFixed(1)}% (${ROUNDS} rounds of ${REQUESTS_PER_ROUND} requests each).`,
  )
}

const manyBuckets = (): void => {
  const gc = collectGarbage()
  const limits = { perMinute: 60, perDay: 1_000 }
  const names = Array.from(
    { length: BUCKETS },
    (_, i) => `anon:10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`,
  )
  const limiter = createRateLimiter()
  gc()
  const heapEmpty = process.memoryUsage().heapUsed
  const newBucketNs = timeSync(BUCKETS, (i) =>
    limiter.take({ bucket: names[i] as string, limits, now: NOON, bannable: false }),
  )
  gc()
  const heapFull = process.memoryUsage().heapUsed
  const sizeFull = limiter.size
  const knownBucketNs = timeSync(BUCKETS, (i) =>
    limiter.take({ bucket: names[i] as string, limits, now: NOON + 1, bannable: false }),
  )
  // The first request of the next day sweeps every bucket whose day has ended.
  const sweepNs = timeSync(1, () =>
    limiter.take({ bucket: 'key:tomorrow', limits, now: NOON + 86_400_000, bannable: true }),
  )
  gc()
  const heapSwept = process.memoryUsage().heapUsed
  console.table([
    { moment: 'empty limiter', buckets: 0, heap: megabytes(heapEmpty) },
    {
      moment: `after ${BUCKETS.toLocaleString('en')} callers`,
      buckets: sizeFull,
      heap: megabytes(heapFull),
    },
    { moment: 'next day, after the sweep', buckets: limiter.size, heap: megabytes(heapSwept) },
  ])
  console.log(
    `Held by the buckets: ${megabytes(heapFull - heapEmpty)} (${Math.round((heapFull - heapEmpty) / BUCKETS)} bytes each, key strings excluded); after the sweep: ${megabytes(Math.max(0, heapSwept - heapEmpty))}.`,
  )
  console.log(
    `take(): ${newBucketNs.toFixed(0)} ns on a new bucket, ${knownBucketNs.toFixed(0)} ns on a known one (${(newBucketNs / knownBucketNs).toFixed(2)}×); the sweep of ${BUCKETS.toLocaleString('en')} buckets: ${(sweepNs / 1e6).toFixed(1)} ms, once per UTC day.`,
  )
}

export async function run(): Promise<void> {
  await perRequest()
  manyBuckets()
}
