/**
 * `npm run bench`: every benchmark in one run. Each reports its figures as
 * ratios against a baseline measured in the same run, because the machines
 * are shared and noisy. Benchmarks are listed here; each file exports `run`.
 */
const BENCHMARKS: ReadonlyArray<{
  name: string
  load: () => Promise<{ run: () => Promise<void> }>
}> = [
  { name: 'pagination across 100,000 pets', load: () => import('./pagination.js') },
  {
    name: 'rate limiter: per-request cost and 100,000 buckets',
    load: () => import('./rate-limit.js'),
  },
  { name: 'standalone server vs bare node:http', load: () => import('./server.js') },
  { name: 'soak: minutes of mixed traffic, RSS sampled', load: () => import('./soak.js') },
  {
    name: 'sessions: 1,000 alive, memory, creation, requests',
    load: () => import('./sessions.js'),
  },
  {
    name: 'shared state on Redis: memory vs Redis, two instances vs one',
    load: () => import('./redis.js'),
  },
]

for (const bench of BENCHMARKS) {
  console.log(`\n## ${bench.name}\n`)
  const { run } = await bench.load()
  await run()
}
