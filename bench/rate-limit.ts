/**
 * What the rate limiter costs. Two parts:
 *
 * 1. Per request through the whole core (`sandbox.handle`): the real limiter
 *    against a no-op one that admits everything, in alternating rounds so both
 *    see the same machine noise. The ratio should be near 1.
 * 2. The limiter alone over 100,000 distinct buckets (one per caller address):
 *    the cost of a take on a new and on a known bucket, and the heap before
 *    filling, when full, and after the day ends and the sweep drops them.
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import type { SandboxRequest } from '../src/core/types.js'
import { createRateLimiter, type RateLimiter } from '../src/rate-limit/rate-limiter.js'
import { createSandbox } from '../src/sandbox/create-sandbox.js'

const ROUNDS = 9
const REQUESTS_PER_ROUND = 5_000
const BUCKETS = 100_000
const NOON = Date.parse('2030-01-01T12:00:00Z')

/** A limiter that admits everything and says nothing: the pipeline without rate limiting. */
const noopLimiter: RateLimiter = {
  take: () => ({ allowed: true, headers: {} }),
  reset: () => {},
  size: 0,
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
  const withLimiter = createSandbox(options)
  const withoutLimiter = createSandbox({ ...options, limiter: noopLimiter })
  await Promise.all([withLimiter.ready, withoutLimiter.ready])
  const request: SandboxRequest = {
    method: 'GET',
    url: 'http://127.0.0.1:4010/v1/pets?limit=1',
    headers: { authorization: 'Bearer bench-key' },
    body: null,
  }
  const real: number[] = []
  const noop: number[] = []
  for (let round = -1; round < ROUNDS; round++) {
    const a = await timeAsync(REQUESTS_PER_ROUND, () => withLimiter.handle(request))
    const b = await timeAsync(REQUESTS_PER_ROUND, () => withoutLimiter.handle(request))
    if (round >= 0) {
      real.push(a)
      noop.push(b)
    }
  }
  const realNs = median(real)
  const noopNs = median(noop)
  console.table([
    { pipeline: 'no-op limiter', 'µs/request': (noopNs / 1000).toFixed(2), ratio: '1.00×' },
    {
      pipeline: 'real limiter',
      'µs/request': (realNs / 1000).toFixed(2),
      ratio: `${(realNs / noopNs).toFixed(2)}×`,
    },
  ])
  console.log(
    `The limiter adds ${((realNs - noopNs) / 1000).toFixed(2)} µs per request (median of ${ROUNDS} alternating rounds of ${REQUESTS_PER_ROUND}).`,
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
    `take(): ${newBucketNs.toFixed(0)} ns on a new bucket, ${knownBucketNs.toFixed(0)} ns on a known one (${(newBucketNs / knownBucketNs).toFixed(2)}×); the sweep of ${BUCKETS.toLocaleString('en')} buckets: ${(sweepNs / 1e6).toFixed(1)} ms, once per minute at most.`,
  )
}

export async function run(): Promise<void> {
  await perRequest()
  manyBuckets()
}
