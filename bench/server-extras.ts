/**
 * The rest of issue 20's targets, run after the request cases of
 * bench/server.ts: ten dashboard pages open, Redis against memory, start-up
 * of the built CLI against a bare server started the same way, and the
 * in-process runtime against a trivial MSW handler.
 */
import { execFileSync } from 'node:child_process'
import { HttpResponse, http } from 'msw'
import { setupServer } from 'msw/node'
import { setupSandbox } from '../src/runtimes/node.js'
import { startTestRedis } from '../test/support/redis-server.js'
import { loadWith, median, type RecordedAnswer, type Spawned, spawnServer } from './support/load.js'

interface ExtrasInput {
  root: string
  cli: string
  keyFlags: string[]
  key: string
  bare?: Spawned
  answers: Record<string, RecordedAnswer>
  seconds: number
  rounds: number
  /** BENCH_COMPARE's checkout: its built CLI is started in the same rounds. */
  compareDir?: string | undefined
}

const LIST = '/v1/pets?limit=20'

const verdict = (ok: boolean): string => (ok ? '✓' : '✗')

/** Opens `count` dashboard event streams and reads them until `close()`. */
const openDashboards = async (origin: string, count: number) => {
  const controller = new AbortController()
  const readers = await Promise.all(
    Array.from({ length: count }, async () => {
      const response = await fetch(`${origin}/__sandbox/events`, { signal: controller.signal })
      const reader = response.body?.getReader()
      let bytes = 0
      const reading = (async () => {
        try {
          for (;;) {
            const chunk = await reader?.read()
            if (chunk === undefined || chunk.done) return
            bytes += chunk.value.byteLength
          }
        } catch {
          // Aborted at the end.
        }
      })()
      return { reading, bytes: () => bytes }
    }),
  )
  return {
    bytes: () => readers.reduce((sum, r) => sum + r.bytes(), 0),
    close: async () => {
      controller.abort()
      await Promise.all(readers.map((r) => r.reading))
    },
  }
}

const listLoad = (server: Spawned, key: string, seconds: number) =>
  loadWith({
    url: `${server.origin}${LIST}`,
    headers: { authorization: `Bearer ${key}` },
    seconds,
    pid: server.child.pid,
  })

const dashboards = async (input: ExtrasInput): Promise<void> => {
  const bareServer = input.bare
  if (bareServer === undefined) return
  const sandbox = await spawnServer(
    [input.cli, '--port', '0', '--quiet', ...input.keyFlags],
    input.root,
  )
  const pages = await openDashboards(sandbox.origin, 10)
  const own: number[] = []
  const bare: number[] = []
  for (let r = 0; r < input.rounds; r++) {
    bare.push((await listLoad(bareServer, input.key, input.seconds)).rps)
    own.push((await listLoad(sandbox, input.key, input.seconds)).rps)
  }
  const ratio = median(own) / median(bare)
  console.log(
    `\n10 dashboard pages open, GET list: ${median(own).toFixed(0)} req/s, bare ${median(bare).toFixed(0)}, ratio ${ratio.toFixed(2)} (target >= 0.5 ${verdict(ratio >= 0.5)}); the pages read ${(pages.bytes() / 1024).toFixed(0)} KB`,
  )
  await pages.close()
  await sandbox.stop()
}

/**
 * One instance on Redis against one in memory, GET list (and the compared
 * build's pair in the same rounds); `commands` counts Redis commands a request
 * (INFO commandstats before and after the Redis rounds), `redisCpu` Redis's own
 * CPU a request (INFO cpu).
 */
export const redisAgainstMemory = async (input: ExtrasInput): Promise<void> => {
  try {
    execFileSync('redis-server', ['--version'])
  } catch {
    console.log('\nRedis against memory: skipped (no redis-server on PATH)')
    return
  }
  const redis = await startTestRedis()
  const pairs: { name: string; onRedis: Spawned; memory: Spawned }[] = []
  try {
    const builds = [{ name: 'this build', root: input.root }]
    if (input.compareDir !== undefined) builds.push({ name: 'compared', root: input.compareDir })
    for (const [i, build] of builds.entries())
      pairs.push({
        name: build.name,
        onRedis: await spawnServer(
          [
            input.cli,
            '--port',
            '0',
            '--quiet',
            ...input.keyFlags,
            '--store',
            `${redis.url.replace(/\/[0-9]*$/, '')}/${i}`,
          ],
          build.root,
        ),
        memory: await spawnServer(
          [input.cli, '--port', '0', '--quiet', ...input.keyFlags],
          build.root,
        ),
      })
    const figures = pairs.map(() => ({
      mem: [] as number[],
      red: [] as number[],
      memCpu: [] as number[],
      redCpu: [] as number[],
      commands: [] as number[],
      calls: [] as number[],
      redisCpu: [] as number[],
    }))
    for (let r = 0; r < input.rounds; r++)
      for (const [i, pair] of pairs.entries()) {
        const f = figures[i] as (typeof figures)[number]
        const m = await listLoad(pair.memory, input.key, input.seconds)
        f.mem.push(m.rps)
        f.memCpu.push(m.cpuUs)
        const before = await commandCount(redis.url)
        const d = await listLoad(pair.onRedis, input.key, input.seconds)
        const after = await commandCount(redis.url)
        f.red.push(d.rps)
        f.redCpu.push(d.cpuUs)
        f.commands.push((after.all - before.all) / Math.max(1, d.requests))
        f.calls.push((after.calls - before.calls) / Math.max(1, d.requests))
        f.redisCpu.push(((after.cpuS - before.cpuS) * 1e6) / Math.max(1, d.requests))
      }
    for (const [i, pair] of pairs.entries()) {
      const f = figures[i] as (typeof figures)[number]
      const ratio = median(f.red) / median(f.mem)
      console.log(
        `\nRedis store against memory, GET list (${pair.name}): ${median(f.red).toFixed(0)} req/s against ${median(f.mem).toFixed(0)}, ratio ${ratio.toFixed(2)} (target >= 0.5 ${verdict(ratio >= 0.5)}); cpu µs a request ${median(f.redCpu).toFixed(1)} against ${median(f.memCpu).toFixed(1)}, Redis's own ${median(f.redisCpu).toFixed(1)}; Redis calls (scripts and commands sent) a request ${median(f.calls).toFixed(2)}, commands run (inside scripts too) ${median(f.commands).toFixed(1)}`,
      )
    }
  } finally {
    await Promise.all(pairs.flatMap((p) => [p.onRedis.stop(), p.memory.stop()]))
    await redis.dispose()
  }
}

/**
 * Commands Redis has run so far (INFO commandstats): `all` counts the
 * commands scripts run too, `calls` what clients sent (scripts, and commands
 * other than those scripts run). The few commands of this look itself are noise.
 */
const commandCount = async (url: string): Promise<{ all: number; calls: number; cpuS: number }> => {
  const { Redis } = await import('ioredis')
  const client = new Redis(url, { lazyConnect: true })
  await client.connect()
  try {
    const info = await client.info('commandstats')
    let all = 0
    let scripts = 0
    for (const match of info.matchAll(/cmdstat_([a-z|]+):calls=([0-9]+)/g)) {
      all += Number(match[2])
      if (/^(eval|evalsha|fcall)$/.test(match[1] as string)) scripts += Number(match[2])
    }
    // The server sends scripts and WAIT only (decision 0014); a script's own commands count under their names.
    const waits = Number(/cmdstat_wait:calls=([0-9]+)/.exec(info)?.[1] ?? 0)
    // Redis's own CPU so far (INFO cpu: user and system, seconds).
    const cpu = await client.info('cpu')
    const cpuS =
      Number(/used_cpu_sys:([0-9.]+)/.exec(cpu)?.[1] ?? 0) +
      Number(/used_cpu_user:([0-9.]+)/.exec(cpu)?.[1] ?? 0)
    return { all, calls: scripts + waits, cpuS }
  } finally {
    client.disconnect()
  }
}

/** ms from spawn to the first answer of `target`. */
const firstAnswer = async (args: string[], root: string, target: string, key: string) => {
  const started = performance.now()
  const server = await spawnServer(args, root)
  const response = await fetch(`${server.origin}${target}`, {
    headers: { authorization: `Bearer ${key}` },
  })
  await response.arrayBuffer()
  const ms = performance.now() - started
  await server.stop()
  return ms
}

/**
 * Start-up to the first answer: the built CLI against a bare node:http server
 * started the same way, interleaved, 7 times each (and BENCH_COMPARE's CLI).
 */
export const startUp = async (input: Omit<ExtrasInput, 'bare'>): Promise<void> => {
  const own: number[] = []
  const bare: number[] = []
  const compared: number[] = []
  const answers = JSON.stringify({ [`GET ${LIST}`]: input.answers[`GET ${LIST}`] })
  const cliArgs = [input.cli, '--port', '0', '--quiet', ...input.keyFlags]
  for (let i = 0; i < 7; i++) {
    bare.push(
      await firstAnswer(['bench/support/bare-server.mjs', answers], input.root, LIST, input.key),
    )
    own.push(await firstAnswer(cliArgs, input.root, LIST, input.key))
    if (input.compareDir !== undefined)
      compared.push(await firstAnswer(cliArgs, input.compareDir, LIST, input.key))
  }
  const ratio = median(own) / median(bare)
  const other =
    input.compareDir === undefined
      ? ''
      : `; compared ${median(compared).toFixed(0)} ms, ratio ${(median(compared) / median(bare)).toFixed(2)}`
  console.log(
    `\nstart-up to the first answer (median of 7): built CLI ${median(own).toFixed(0)} ms, bare node:http ${median(bare).toFixed(0)} ms, ratio ${ratio.toFixed(2)} (target <= 1.5 ${verdict(ratio <= 1.5)})${other}`,
  )
  console.log(
    `  each run, ms: CLI ${own.map((ms) => ms.toFixed(0)).join(' ')}; bare ${bare.map((ms) => ms.toFixed(0)).join(' ')}${input.compareDir === undefined ? '' : `; compared ${compared.map((ms) => ms.toFixed(0)).join(' ')}`}`,
  )
}

/** Fetches per second through an MSW server in this process, for about `ms`. */
const fetchRate = async (url: string, headers: Record<string, string>, ms: number) => {
  let done = 0
  const end = performance.now() + ms
  while (performance.now() < end) {
    for (let i = 0; i < 50; i++) {
      const response = await fetch(url, { headers })
      await response.arrayBuffer()
      done++
    }
  }
  return (done * 1000) / ms
}

const inProcess = async (input: ExtrasInput): Promise<void> => {
  const recorded = input.answers[`GET ${LIST}`] as RecordedAnswer
  const url = `http://api.example.test${LIST}`
  const headers = { authorization: `Bearer ${input.key}` }
  const trivial = setupServer(
    http.get('http://api.example.test/v1/pets', () =>
      HttpResponse.text(recorded.body, { status: recorded.status, headers: recorded.headers }),
    ),
  )
  const plain: number[] = []
  const own: number[] = []
  const sandbox = setupSandbox({
    keys: { [input.key]: { plan: 'enterprise', perMinute: 1e9, perDay: 1e12 } },
  })
  for (let r = 0; r < input.rounds; r++) {
    trivial.listen({ onUnhandledRequest: 'error' })
    plain.push(await fetchRate(url, headers, input.seconds * 500))
    trivial.close()
    sandbox.listen()
    own.push(await fetchRate(url, headers, input.seconds * 500))
    sandbox.close()
  }
  const ratio = median(plain) / median(own)
  console.log(
    `\nin-process (setupSandbox + fetch) against a trivial MSW handler: ${median(own).toFixed(0)} against ${median(plain).toFixed(0)} fetches/s, time ratio ${ratio.toFixed(3)} (target <= 1.05 ${verdict(ratio <= 1.05)})`,
  )
}

/**
 * @example
 * await runExtras({ root, cli, keyFlags, key, bare, answers, seconds: 4, rounds: 3 })
 */
export const runExtras = async (input: ExtrasInput): Promise<void> => {
  await dashboards(input)
  await redisAgainstMemory(input)
  await startUp(input)
  await inProcess(input)
}
