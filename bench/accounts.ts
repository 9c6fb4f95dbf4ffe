/**
 * `npm run bench -- accounts` (issue 36): a provider's hosted sandbox on this
 * machine. A 3-master Redis Cluster (3 replicas), 3 instances of the built CLI
 * with `--accounts open`; 1,000 accounts signed up (each from its own 127.x.y.z
 * address: sign-ups are throttled per address) with one pro key each; then 200
 * of them at once run a test suite's worth of traffic each (a reset through the
 * control API with the account's key, lists, creates, a get, a forced 429,
 * lists again), spread over the instances, until every account ran once.
 * Prints req/s, p50/p99, Redis commands a request (INFO commandstats on every
 * master, before and after) and memory per idle account (INFO memory before
 * and after the sign-ups, over the masters). Loopback only, bounded in count.
 *
 * Settings: BENCH_ACCOUNTS (default 1,000), BENCH_ACTIVE (default 200).
 */
import { readFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Redis } from 'ioredis'
import { startTestCluster } from '../test/support/redis-cluster.js'
import { type Spawned, spawnServer } from './support/load.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const CLI = join(ROOT, 'dist/cli/petstore-sandbox.js')
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 1_000)
const ACTIVE = Number(process.env.BENCH_ACTIVE ?? 200)
const ADMIN = 'bench-admin-token-0123456789abcdef'

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

// One agent for the sign-ups and one for the traffic: a connection left idle between the two
// is closed by the server's keep-alive timeout, and reusing it would race that close.
const signUpAgent = new Agent({ keepAlive: true, maxSockets: 16 })
const trafficAgent = new Agent({ keepAlive: true, maxSockets: ACTIVE })
let agent = signUpAgent

const send = (
  origin: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
  localAddress?: string,
): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const url = new URL(path, origin)
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path: url.pathname + url.search,
        headers: {
          ...headers,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        // One socket per sign-up from its own address; the traffic keeps its connections.
        ...(localAddress === undefined ? { agent } : { localAddress, agent: false }),
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          text += chunk
        })
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
        )
      },
    )
    req.on('error', reject)
    req.end(body)
  })

/** Signs one account up from its own loopback address and makes its key (cookie and CSRF token). */
const signUp = async (origin: string, i: number): Promise<string> => {
  const address = `127.${1 + (i >> 16)}.${(i >> 8) & 255}.${i & 255 || 1}`
  const made = await send(
    origin,
    'POST',
    '/portal/api/signup',
    {},
    JSON.stringify({ email: `dev${i}@bench.example`, password: `bench passphrase ${i}!` }),
    address,
  )
  if (made.status !== 201) throw new Error(`sign-up ${i}: ${made.status} ${made.body}`)
  const cookie = String(made.headers['set-cookie']).split(';')[0] as string
  const me = JSON.parse((await send(origin, 'GET', '/portal/api/me', { cookie })).body) as {
    csrfToken: string
  }
  const key = await send(
    origin,
    'POST',
    '/portal/api/keys',
    { cookie, 'x-csrf-token': me.csrfToken },
    JSON.stringify({ name: 'CI', plan: 'pro' }),
  )
  if (key.status !== 201) throw new Error(`key ${i}: ${key.status} ${key.body}`)
  return (JSON.parse(key.body) as { key: string }).key
}

/** One account's test suite: what a CI run of a client's tests sends. */
const suite = async (
  origins: string[],
  key: string,
  i: number,
  latencies: number[],
  statuses: Map<number, number>,
): Promise<void> => {
  const auth = { authorization: `Bearer ${key}` }
  const steps: [string, string, string?][] = [
    ['POST', '/__sandbox/reset'],
    ['GET', '/v1/pets?limit=20'],
    ['POST', '/v1/pets', JSON.stringify({ name: `Rex ${i}`, categoryId: 1 })],
    ['POST', '/v1/pets', JSON.stringify({ name: `Ada ${i}`, categoryId: 2 })],
    ['GET', '/v1/pets?limit=5&status=available'],
    ['GET', '/v1/pets/1'],
    ['GET', '/v1/pets?__scenario=rate-limited'],
    ['POST', '/v1/pets', JSON.stringify({ name: '' })],
    ['GET', '/v1/pets?limit=50'],
    ['GET', '/v1/pets?limit=20&cursor=bogus'],
    ['POST', '/v1/pets', JSON.stringify({ name: `Max ${i}`, categoryId: 3 })],
    ['GET', '/v1/pets?limit=100'],
  ]
  for (const [n, [method, path, body]] of steps.entries()) {
    const origin = origins[(i + n) % origins.length] as string
    const started = performance.now()
    // A transport error counts as status 0 (and shows in the statuses line).
    const status = await send(origin, method, path, auth, body).then(
      (answer) => answer.status,
      () => 0,
    )
    latencies.push(performance.now() - started)
    statuses.set(status, (statuses.get(status) ?? 0) + 1)
  }
}

const masterClients = async (cluster: { nodes: readonly { url: string }[] }) => {
  const masters: Redis[] = []
  for (const node of cluster.nodes) {
    const client = new Redis(node.url)
    if (/role:master/.test(await client.info('replication'))) masters.push(client)
    else client.disconnect()
  }
  return masters
}

const sumInfo = async (masters: Redis[], section: string, pattern: RegExp): Promise<number> => {
  let total = 0
  for (const client of masters)
    for (const match of (await client.info(section)).matchAll(pattern)) total += Number(match[1])
  return total
}

/** Scripts and WAIT: what an instance sends (decision 0014); a script's own commands count under their names. */
const SENT = /cmdstat_(?:evalsha|eval|wait):calls=([0-9]+)/g
/** Redis's own CPU, seconds (main thread and children). */
const REDIS_CPU = /used_cpu_(?:sys|user):([0-9.]+)/g

/** CPU time of a process so far, in ms (Linux /proc). */
const cpuMs = (pid: number | undefined): number => {
  if (pid === undefined) return 0
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return 0
  }
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN

export async function run(): Promise<void> {
  const cluster = await startTestCluster()
  const servers: Spawned[] = []
  const masters = await masterClients(cluster)
  try {
    for (let i = 0; i < 3; i++)
      servers.push(
        await spawnServer(
          [
            CLI,
            '--port',
            '0',
            '--quiet',
            '--store',
            cluster.url,
            '--accounts',
            'open',
            '--admin-token',
            ADMIN,
          ],
          ROOT,
        ),
      )
    const origins = servers.map((s) => s.origin)
    const usedBefore = await sumInfo(masters, 'memory', /used_memory:([0-9]+)/g)
    const signUpStarted = performance.now()
    const keys: string[] = new Array(ACCOUNTS)
    let next = 0
    await Promise.all(
      Array.from({ length: 12 }, async () => {
        for (let i = next++; i < ACCOUNTS; i = next++)
          keys[i] = await signUp(origins[i % origins.length] as string, i)
      }),
    )
    const signUpS = (performance.now() - signUpStarted) / 1000
    const usedAfter = await sumInfo(masters, 'memory', /used_memory:([0-9]+)/g)
    const perAccount = (usedAfter - usedBefore) / ACCOUNTS
    console.log(
      `${ACCOUNTS} accounts signed up with a pro key each in ${signUpS.toFixed(1)} s (scrypt on the instances); Redis memory ${(usedBefore / 1e6).toFixed(1)} → ${(usedAfter / 1e6).toFixed(1)} MB over the masters: ${perAccount.toFixed(0)} bytes an idle account (account, key, log-in, its sandbox's session not opened yet)`,
    )

    agent = trafficAgent
    const callsBefore = await sumInfo(masters, 'commandstats', /calls=([0-9]+)/g)
    const sentBefore = await sumInfo(masters, 'commandstats', SENT)
    const redisCpuBefore = await sumInfo(masters, 'cpu', REDIS_CPU)
    const serverCpuBefore = servers.reduce((sum, s) => sum + cpuMs(s.child.pid), 0)
    const latencies: number[] = []
    const statuses = new Map<number, number>()
    const started = performance.now()
    let account = 0
    await Promise.all(
      Array.from({ length: ACTIVE }, async () => {
        for (let i = account++; i < ACCOUNTS; i = account++)
          await suite(origins, keys[i] as string, i, latencies, statuses)
      }),
    )
    const seconds = (performance.now() - started) / 1000
    const callsAfter = await sumInfo(masters, 'commandstats', /calls=([0-9]+)/g)
    const sentAfter = await sumInfo(masters, 'commandstats', SENT)
    const redisCpuAfter = await sumInfo(masters, 'cpu', REDIS_CPU)
    const serverCpuAfter = servers.reduce((sum, s) => sum + cpuMs(s.child.pid), 0)
    const usedActive = await sumInfo(masters, 'memory', /used_memory:([0-9]+)/g)
    latencies.sort((a, b) => a - b)
    console.log(
      `${ACCOUNTS} test suites, ${ACTIVE} accounts at once, 3 instances on a 3-master Cluster: ${latencies.length} requests in ${seconds.toFixed(1)} s, ${(latencies.length / seconds).toFixed(0)} req/s, p50 ${percentile(latencies, 0.5).toFixed(1)} ms, p99 ${percentile(latencies, 0.99).toFixed(1)} ms`,
    )
    console.log(
      `statuses: ${[...statuses]
        .sort((a, b) => a[0] - b[0])
        .map(([s, n]) => `${s}×${n}`)
        .join(', ')}`,
    )
    const n = latencies.length
    console.log(
      `CPU a request: the instances ${(((serverCpuAfter - serverCpuBefore) * 1000) / n).toFixed(0)} µs (/proc, the three together), Redis ${(((redisCpuAfter - redisCpuBefore) * 1e6) / n).toFixed(0)} µs (INFO cpu, the masters together)`,
    )
    console.log(
      `Redis calls a request (scripts and WAIT sent, INFO commandstats over the masters): ${((sentAfter - sentBefore) / n).toFixed(2)}; commands run, scripts' own included: ${((callsAfter - callsBefore) / n).toFixed(1)}; memory after every account's sandbox ran once: ${((usedActive - usedBefore) / ACCOUNTS).toFixed(0)} bytes an account`,
    )
  } finally {
    signUpAgent.destroy()
    trafficAgent.destroy()
    await Promise.all(servers.map((s) => s.stop()))
    for (const client of masters) client.disconnect()
    await cluster.dispose()
  }
}
