/**
 * What sessions cost, with 1,000 sessions alive besides `default`:
 *
 * 1. Memory per idle 25-pet session and time to create one. Measured in a
 *    child process of its own (`node --expose-gc`), so that heap and RSS
 *    deltas are not blurred by the other benchmarks: heap and RSS after a
 *    full GC before the sessions, once 1,000 are created (pets loaded), and
 *    once each has answered one request (a journal entry, a quota bucket), ÷
 *    1,000. Creation is timed one session at a time: `sandbox.session(id)`
 *    and its pets in place; mean and p95.
 * 2. Requests in a session vs in `default`, through the whole core: the same
 *    GET in `default`, in one session by `X-Sandbox-Session`, and across all
 *    1,000 sessions in turn (every request reorders the LRU), in alternating
 *    rounds; ratios within each round, median over rounds. A second `default`
 *    series gives the noise floor.
 *
 * Targets (issue 12): under 50 KB and under 1 ms per session; requests in a
 * session as fast as in `default`.
 */
import { spawn } from 'node:child_process'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { createSandboxCore } from '../src/sandbox/create-sandbox-core.js'

const SESSIONS = 1_000
const ROUNDS = 31
const REQUESTS_PER_ROUND = 1_000
const KEY = 'bench-key'
const OPTIONS = {
  keys: { [KEY]: { plan: 'enterprise' as const, perMinute: 1e9, perDay: 1e9 } },
  // Room for 1,000 sessions besides `default`: none is dropped during the run.
  maxSessions: SESSIONS + 1,
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] as number
}
const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number
}
const kilobytes = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`

const request = (session: string | undefined) => ({
  method: 'GET',
  url: 'http://127.0.0.1:4010/v1/pets?limit=1',
  headers: {
    authorization: `Bearer ${KEY}`,
    ...(session === undefined ? {} : { 'x-sandbox-session': session }),
  },
  body: null,
})

interface MemoryFigures {
  heap: { before: number; created: number; used: number }
  rss: { before: number; created: number; used: number }
  createMs: number[]
  /** CPU time (user + system) of the 1,000 creations, µs: unlike wall time, not inflated by other processes. */
  createCpuUs: number
  alive: number
}

/** The child's part: runs with --expose-gc, prints its figures as JSON. */
const measureMemory = async (): Promise<MemoryFigures> => {
  const gc = (globalThis as { gc?: () => void }).gc
  if (gc === undefined) throw new Error('Failed to run the benchmark: start with --expose-gc.')
  const collect = () => {
    gc()
    gc()
    return process.memoryUsage()
  }
  const sandbox = createSandboxCore(OPTIONS)
  await sandbox.ready
  // Warm up the code paths (and the seeded snapshot) with sessions dropped again.
  for (let i = 0; i < 200; i++) {
    const id = `warm-${i}`
    await sandbox.session(id).ready
    await sandbox.handle(request(id))
    sandbox.sessions.drop(id)
  }
  const before = collect()
  const createMs: number[] = []
  const cpu = process.cpuUsage()
  for (let i = 0; i < SESSIONS; i++) {
    const started = performance.now()
    await sandbox.session(`s-${i}`).ready
    createMs.push(performance.now() - started)
  }
  const cpuUsed = process.cpuUsage(cpu)
  const created = collect()
  for (let i = 0; i < SESSIONS; i++) {
    const response = await sandbox.handle(request(`s-${i}`))
    if (response?.status !== 200) throw new Error('Failed to run the benchmark: not a 200.')
  }
  const used = collect()
  return {
    heap: { before: before.heapUsed, created: created.heapUsed, used: used.heapUsed },
    rss: { before: before.rss, created: created.rss, used: used.rss },
    createMs,
    createCpuUs: cpuUsed.user + cpuUsed.system,
    alive: sandbox.sessions.list().length,
  }
}

const memoryInChild = (): Promise<MemoryFigures> =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), '--memory-child'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
    })
    const timer = setTimeout(() => child.kill('SIGTERM'), 120_000)
    child.on('exit', (code) => {
      clearTimeout(timer)
      if (code === 0) resolve(JSON.parse(out) as MemoryFigures)
      else reject(new Error(`Failed to run the memory benchmark: the child exited ${code}.`))
    })
  })

const reportMemory = async (): Promise<void> => {
  const m = await memoryInChild()
  const per = (from: number, to: number) => kilobytes((to - from) / SESSIONS)
  console.table([
    {
      moment: `${SESSIONS.toLocaleString('en')} sessions created (25 pets each)`,
      'heap / session': per(m.heap.before, m.heap.created),
      'RSS / session': per(m.rss.before, m.rss.created),
    },
    {
      moment: '... after one request each (journal entry, quota bucket)',
      'heap / session': per(m.heap.before, m.heap.used),
      'RSS / session': per(m.rss.before, m.rss.used),
    },
  ])
  const mean = m.createMs.reduce((a, b) => a + b, 0) / m.createMs.length
  const us = (ms: number) => `${(ms * 1000).toFixed(0)} µs`
  console.log(
    `Sessions alive: ${m.alive.toLocaleString('en')} (default included). Creating one (session(id) until its pets are in place), wall time: mean ${us(mean)}, median ${us(median(m.createMs))}, p95 ${us(percentile(m.createMs, 95))}, max ${us(Math.max(...m.createMs))}; CPU time: ${(m.createCpuUs / SESSIONS).toFixed(0)} µs each. Targets: under 50 KB and 1 ms.`,
  )
}

/** Nanoseconds per request of `next()`'s request, over `REQUESTS_PER_ROUND`. */
const time = async (
  sandbox: ReturnType<typeof createSandboxCore>,
  next: (i: number) => ReturnType<typeof request>,
): Promise<number> => {
  const started = performance.now()
  for (let i = 0; i < REQUESTS_PER_ROUND; i++) {
    if ((await sandbox.handle(next(i)))?.status !== 200)
      throw new Error('Failed to run the benchmark: not a 200.')
  }
  return ((performance.now() - started) * 1e6) / REQUESTS_PER_ROUND
}

const reportRequests = async (): Promise<void> => {
  const sandbox = createSandboxCore(OPTIONS)
  await sandbox.ready
  for (let i = 0; i < SESSIONS; i++) await sandbox.session(`s-${i}`).ready
  const series: ReadonlyArray<{ name: string; next: (i: number) => ReturnType<typeof request> }> = [
    { name: 'default', next: () => request(undefined) },
    { name: 'default, again (noise)', next: () => request(undefined) },
    { name: 'one session (X-Sandbox-Session)', next: () => request('s-500') },
    {
      name: `${SESSIONS.toLocaleString('en')} sessions in turn`,
      next: (i) => request(`s-${i % SESSIONS}`),
    },
  ]
  const times = series.map((): number[] => [])
  for (let round = -1; round < ROUNDS; round++) {
    for (let step = 0; step < series.length; step++) {
      const index = (step + Math.max(0, round)) % series.length
      const entry = series[index]
      if (entry === undefined) continue
      const ns = await time(sandbox, entry.next)
      if (round >= 0) times[index]?.push(ns)
    }
  }
  const ratioTo = (index: number): number =>
    median((times[index] ?? []).map((ns, round) => ns / (times[0]?.[round] ?? ns)))
  console.table(
    series.map(({ name }, index) => ({
      requests: name,
      'µs/request': (median(times[index] ?? []) / 1000).toFixed(2),
      'vs default (median of per-round ratios)': `${ratioTo(index).toFixed(3)}×`,
    })),
  )
  console.log(
    `In a session: ${ratioTo(2).toFixed(3)}× default; across ${SESSIONS.toLocaleString('en')} sessions: ${ratioTo(3).toFixed(3)}×; two default series differ by ${(Math.abs(ratioTo(1) - 1) * 100).toFixed(1)}% (${ROUNDS} rounds of ${REQUESTS_PER_ROUND} requests, ${sandbox.sessions.list().length.toLocaleString('en')} sessions alive).`,
  )
}

export async function run(): Promise<void> {
  await reportMemory()
  await reportRequests()
}

// `npx tsx bench/sessions.ts` runs this benchmark alone; the memory child runs this file too.
if (process.argv.includes('--memory-child')) {
  process.stdout.write(JSON.stringify(await measureMemory()))
} else if (
  process.argv[1] !== undefined &&
  import.meta.url === pathToFileURL(process.argv[1]).href
) {
  await run()
}
