/**
 * Upstream mode's cost (issue 19 item 6): the latency a client sees calling
 * an upstream directly, and through the sandbox in front of it (`--upstream`,
 * forwarding over keep-alive node:http, validating every answer, journaling
 * it). The upstream is a bare node:http server replaying the sandbox's own
 * recorded answer, so the difference is the sandbox's. Every process is the
 * built CLI or a plain node script, on loopback.
 *
 *   npm run bench -- upstream
 *
 * autocannon drives the load; the latency percentiles come from each
 * response's own time (autocannon's histogram keeps whole milliseconds, too
 * coarse for a target under one). One connection measures latency without
 * queueing; 10 connections show it under load. Settings: BENCH_SECONDS (per
 * round and target, default 3), BENCH_ROUNDS (default 3).
 */
import { writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { median, recordAnswer, type Spawned, spawnServer } from './support/load.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const CLI = 'dist/cli/petstore-sandbox.js'
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const KEY = 'bench-enterprise'
const HEADERS = { authorization: `Bearer ${KEY}` }
const TARGETS = ['/v1/pets?limit=20', '/v1/pets/7'] as const

interface Latency {
  p50: number
  p99: number
  rps: number
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN

/** autocannon's load; percentiles of each response's own time (fractional ms). */
const measure = async (url: string, connections: number, seconds: number): Promise<Latency> => {
  const times: number[] = []
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { url, headers: HEADERS, connections, duration: seconds },
      (error, done) => (error === null || error === undefined ? resolve(done) : reject(error)),
    )
    instance.on('response', (_client, status, _bytes, ms) => {
      if (status === 200) times.push(ms)
    })
  })
  times.sort((a, b) => a - b)
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99), rps: result.requests.average }
}

const fmt = (n: number, digits = 3): string => n.toFixed(digits).padStart(8)

export async function run(): Promise<void> {
  // The upstream's answers: the sandbox's own, replayed by a bare server.
  const source = await spawnServer(
    [CLI, '--port', '0', '--quiet', '--key', `${KEY}=enterprise:1000000000:1000000000000`],
    ROOT,
  )
  const answers: Record<string, unknown> = {}
  for (const target of TARGETS)
    answers[`GET ${target}`] = await recordAnswer(`${source.origin}${target}`, {
      method: 'GET',
      headers: HEADERS,
    })
  await source.stop()
  const file = join(tmpdir(), `petstore-bench-upstream-${process.pid}.json`)
  writeFileSync(file, JSON.stringify(answers))
  const upstream = await spawnServer(['bench/support/bare-server.mjs', `@${file}`], ROOT)
  const front: Spawned = await spawnServer(
    [CLI, '--port', '0', '--quiet', '--upstream', `${upstream.origin}/v1`],
    ROOT,
  )
  // Warm-up: both paths' JIT has seen the requests before a round counts.
  for (const target of TARGETS)
    for (const origin of [upstream.origin, front.origin]) await measure(`${origin}${target}`, 4, 1)

  console.log(
    `autocannon, ${SECONDS} s a round, median of ${ROUNDS} rounds, direct and through the sandbox interleaved; ms per request\n`,
  )
  console.log(
    `${'request'.padEnd(20)} ${'conns'.padStart(5)} ${'direct p50'.padStart(10)} ${'front p50'.padStart(9)} ${'added p50'.padStart(9)} ${'target'.padStart(7)}  ${'direct p99'.padStart(10)} ${'front p99'.padStart(9)}  ${'front req/s'.padStart(11)}`,
  )
  for (const target of TARGETS) {
    for (const connections of [1, 10]) {
      const rounds: { direct: Latency; front: Latency }[] = []
      for (let r = 0; r < ROUNDS; r++) {
        const direct = await measure(`${upstream.origin}${target}`, connections, SECONDS)
        const through = await measure(`${front.origin}${target}`, connections, SECONDS)
        rounds.push({ direct, front: through })
      }
      const direct = median(rounds.map((x) => x.direct.p50))
      const through = median(rounds.map((x) => x.front.p50))
      const added = median(rounds.map((x) => x.front.p50 - x.direct.p50))
      const goal = connections === 1 ? `<1 ${added < 1 ? '✓' : '✗'}` : ''
      console.log(
        `${target.padEnd(20)} ${String(connections).padStart(5)} ${fmt(direct, 3).padStart(10)} ${fmt(through).padStart(9)} ${fmt(added).padStart(9)} ${goal.padStart(7)}  ${fmt(median(rounds.map((x) => x.direct.p99))).padStart(10)} ${fmt(median(rounds.map((x) => x.front.p99))).padStart(9)}  ${fmt(median(rounds.map((x) => x.front.rps)), 0).padStart(11)}`,
      )
    }
  }
  await Promise.all([front.stop(), upstream.stop()])
}
