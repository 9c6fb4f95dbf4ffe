/**
 * `npm run bench`: every benchmark in one run. Each reports its figures as
 * ratios against a baseline measured in the same run, because the machines
 * are shared and noisy. Benchmarks are listed here; each file exports `run`.
 *
 * A selection: `npm run bench -- load server`, and parts of the load
 * benchmark: `npm run bench -- load:file,bundle` (file, suite, bundle,
 * worker, million).
 */
import { ensureBuild } from '../scripts/ensure-build.mjs'

const BENCHMARKS: ReadonlyArray<{
  key: string
  name: string
  load: () => Promise<{ run: (parts?: readonly string[]) => Promise<void> }>
}> = [
  {
    key: 'pagination',
    name: 'pagination across 100,000 pets',
    load: () => import('./pagination.js'),
  },
  {
    key: 'rate-limit',
    name: 'rate limiter: per-request cost and 100,000 buckets',
    load: () => import('./rate-limit.js'),
  },
  { key: 'server', name: 'standalone server vs bare node:http', load: () => import('./server.js') },
  {
    key: 'core-compare',
    name: 'the core against BENCH_COMPARE, CPU per request in one process (not run by default)',
    load: () => import('./core-compare.js'),
  },
  {
    key: 'profile',
    name: 'a CPU profile of the built CLI under load (not run by default)',
    load: () => import('./profile.js'),
  },
  {
    key: 'soak',
    name: 'soak: minutes of mixed traffic, RSS sampled',
    load: () => import('./soak.js'),
  },
  {
    key: 'worst-client',
    name: 'worst client: many sessions, large heads, many addresses; peak RSS vs idle',
    load: () => import('./worst-client.js'),
  },
  {
    key: 'sessions',
    name: 'sessions: 1,000 alive, memory, creation, requests',
    load: () => import('./sessions.js'),
  },
  {
    key: 'accounts',
    name: 'accounts: 1,000 on 3 instances and a 3-master Redis Cluster, 200 at once (not run by default)',
    load: () => import('./accounts.js'),
  },
  {
    key: 'redis',
    name: 'shared state on Redis: memory vs Redis, two instances vs one',
    load: () => import('./redis.js'),
  },
  {
    key: 'upstream',
    name: 'upstream mode: latency added by forwarding, over calling the upstream directly',
    load: () => import('./upstream.js'),
  },
  {
    key: 'hostile-upstream',
    name: 'hostile upstream: peak RSS and longest event-loop stall per hostile answer vs idle',
    load: () => import('./hostile-upstream.js'),
  },
  {
    key: 'har-reader',
    name: 'report --from and pact --from a long HAR: peak RSS as a ratio to the file',
    load: () => import('./har-reader.js'),
  },
  {
    key: 'redis-cluster',
    name: 'Redis Cluster vs one Redis, per request',
    load: () => import('./redis-cluster.js'),
  },
  {
    key: 'openapi-corpus',
    name: 'real OpenAPI documents (APIs.guru, GitHub): started, answers valid, collections, vs Prism',
    load: () => import('./openapi-corpus.js'),
  },
  {
    key: 'openapi-sessions',
    name: "memory a session costs with GitHub's OpenAPI document, in memory and with --data",
    load: () => import('./openapi-sessions.js'),
  },
  {
    key: 'load',
    name: 'light to load: per test file, a 40-file suite, the browser bundle, 1,000,000 pets',
    load: () => import('./load.js'),
  },
]

const selection = new Map<string, string[] | undefined>()
for (const arg of process.argv.slice(2)) {
  const [key = '', parts] = arg.split(':')
  if (!BENCHMARKS.some((b) => b.key === key)) {
    console.error(`Unknown benchmark "${key}"; known: ${BENCHMARKS.map((b) => b.key).join(', ')}`)
    process.exit(2)
  }
  selection.set(key, parts?.split(','))
}

// The benchmarks run the built package and CLI.
ensureBuild()
// Profiling is a tool, not a figure: only when asked for.
const ON_REQUEST = new Set([
  'profile',
  'core-compare',
  'accounts',
  'openapi-corpus',
  'openapi-sessions',
])
for (const bench of BENCHMARKS) {
  if (selection.size > 0 ? !selection.has(bench.key) : ON_REQUEST.has(bench.key)) continue
  console.log(`\n## ${bench.name}\n`)
  const { run } = await bench.load()
  await run(selection.get(bench.key))
}
