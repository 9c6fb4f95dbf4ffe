/**
 * A CPU profile of the built CLI under load: what issue 20's hot-path work was
 * measured against, and how to look again.
 *
 *   npm run bench -- profile            GET /v1/pets?limit=20
 *   BENCH_TARGET=/v1/pets/7 npm run bench -- profile
 *   BENCH_METHOD=POST BENCH_TARGET=/v1/pets npm run bench -- profile
 *   BENCH_STORE=redis BENCH_SERVER_ARGS="--journal-max-entries 0" npm run bench -- profile
 *
 * Writes bench/results/server-<time>.cpuprofile (open it in Chrome's DevTools,
 * Performance panel, or in VS Code) and prints the functions with the most
 * self time. `writev` is the kernel sending answers; `(idle)` means the load
 * client, not the server, was the limit.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startTestRedis } from '../test/support/redis-server.js'
import { loadWith, spawnServer } from './support/load.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const RESULTS = join(ROOT, 'bench', 'results')

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
}
interface Profile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

const selfTimes = (profile: Profile): [string, number][] => {
  const byNode = new Map<number, number>()
  profile.samples.forEach((id, i) => {
    byNode.set(id, (byNode.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0))
  })
  const byName = new Map<string, number>()
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame
    const where = url === '' ? '' : ` ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`
    const name = `${functionName || '(anonymous)'}${where}`
    byName.set(name, (byName.get(name) ?? 0) + (byNode.get(node.id) ?? 0))
  }
  return [...byName].sort((a, b) => b[1] - a[1])
}

export async function run(): Promise<void> {
  const target = process.env.BENCH_TARGET ?? '/v1/pets?limit=20'
  const method = process.env.BENCH_METHOD ?? 'GET'
  const body = method === 'POST' ? JSON.stringify({ name: 'Bench', categoryId: 1 }) : undefined
  const seconds = Number(process.env.BENCH_SECONDS ?? 6)
  // BENCH_STORE=redis: the server on a Redis of its own (started here, stopped at the end).
  const redis = process.env.BENCH_STORE === 'redis' ? await startTestRedis() : undefined
  try {
    await profileServer({ target, method, body, seconds, store: redis?.url })
  } finally {
    await redis?.dispose()
  }
}

const profileServer = async (input: {
  target: string
  method: string
  body: string | undefined
  seconds: number
  store: string | undefined
}): Promise<void> => {
  const { target, method, body, seconds } = input
  const dir = join(RESULTS, `profile-${process.pid}`)
  mkdirSync(dir, { recursive: true })
  const server = await spawnServer(
    [
      `--cpu-prof-dir=${dir}`,
      '--cpu-prof',
      'dist/cli/petstore-sandbox.js',
      '--port',
      '0',
      '--quiet',
      '--key',
      'bench-enterprise=enterprise:1000000000:1000000000000',
      ...(input.store === undefined ? [] : ['--store', input.store]),
      // BENCH_SERVER_ARGS: more flags for the server (e.g. "--journal-max-entries 0").
      ...(process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter((arg) => arg !== ''),
    ],
    ROOT,
  )
  const load = await loadWith({
    url: `${server.origin}${target}`,
    method,
    body,
    headers: {
      authorization: 'Bearer bench-enterprise',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    seconds,
    pid: server.child.pid,
  })
  // SIGINT lets node write the profile on its way out.
  const exited = new Promise((resolve) => server.child.once('exit', resolve))
  server.child.kill('SIGINT')
  await exited
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'))
  if (file === undefined) throw new Error(`No profile was written in ${dir}`)
  const out = join(RESULTS, `server-${new Date().toISOString().replace(/[:.]/g, '-')}.cpuprofile`)
  renameSync(join(dir, file), out)
  rmSync(dir, { recursive: true, force: true })
  const profile = JSON.parse(readFileSync(out, 'utf8')) as Profile
  const times = selfTimes(profile)
  const total = times.reduce((sum, [, t]) => sum + t, 0)
  console.log(
    `${method} ${target}${input.store === undefined ? '' : ' on Redis'}: ${load.rps.toFixed(0)} req/s, server CPU ${load.cpuUs.toFixed(1)} µs a request, profile ${out}\n`,
  )
  console.log('self time  function')
  for (const [name, t] of times.slice(0, 30))
    console.log(`${((t / total) * 100).toFixed(1).padStart(8)}%  ${name}`)
}
