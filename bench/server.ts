/**
 * The standalone server against a bare node:http server sending the same
 * bytes, both in processes of their own, loaded in this run by autocannon
 * (50 connections): the targets of issue 20, as medians of three rounds.
 *
 *   npm run bench -- server
 *   npm run bench -- server:startup   # only the start-up to the first answer
 *
 * Settings: BENCH_SECONDS (per round and server, default 4), BENCH_ROUNDS
 * (default 3), BENCH_COMPARE=path/to/other/checkout (its built CLI is loaded
 * in the same rounds: a change against the previous commit, in one run).
 * Ratios are throughput against the bare server's; `cpu µs` is the server
 * process's CPU per request (user + system), steadier on a shared machine.
 */
import { existsSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { redisAgainstMemory, runExtras, startUp } from './server-extras.js'
import {
  type LoadResult,
  loadWith,
  median,
  type RecordedAnswer,
  recordAnswer,
  type Spawned,
  spawnServer,
} from './support/load.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const CLI = 'dist/cli/petstore-sandbox.js'
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const KEY = 'bench-enterprise'
const LIMITED = 'bench-limited'
const KEY_FLAGS = [
  '--key',
  `${KEY}=enterprise:1000000000:1000000000000`,
  '--key',
  `${LIMITED}=enterprise:1:1000000000`,
]
const JSON_HEADERS = { 'content-type': 'application/json' }
const NEW_PET = JSON.stringify({ name: 'Bench', categoryId: 1 })

interface Case {
  name: string
  method: string
  /** Distinct per case: the bare server replays by method and target. */
  target: string
  key: string
  body?: string
  /** The throughput ratio to bare this case must reach (issue 20). */
  target_ratio?: number
}

const CASES: readonly Case[] = [
  {
    name: 'GET /v1/pets?limit=20',
    method: 'GET',
    target: '/v1/pets?limit=20',
    key: KEY,
    target_ratio: 0.7,
  },
  { name: 'GET /v1/pets/{id}', method: 'GET', target: '/v1/pets/7', key: KEY },
  {
    name: 'POST /v1/pets',
    method: 'POST',
    target: '/v1/pets',
    key: KEY,
    body: NEW_PET,
    target_ratio: 0.6,
  },
  {
    name: 'a 429',
    method: 'GET',
    target: '/v1/pets?limit=20&case=429',
    key: LIMITED,
    target_ratio: 0.8,
  },
  {
    name: 'GET list, session',
    method: 'GET',
    target: '/v1/pets?limit=20&__session=bench',
    key: KEY,
  },
]

const headersOf = (c: Case): Record<string, string> => ({
  authorization: `Bearer ${c.key}`,
  ...(c.body === undefined ? {} : JSON_HEADERS),
})

const startSandbox = (dir: string, extra: string[] = []): Promise<Spawned> =>
  spawnServer([CLI, '--port', '0', '--quiet', ...KEY_FLAGS, ...extra], dir)

/** Records each case's answer (the 429 after its key is spent and banned) for the bare server. */
const recordCases = async (origin: string): Promise<Record<string, RecordedAnswer>> => {
  const answers: Record<string, RecordedAnswer> = {}
  for (let i = 0; i < 25; i++)
    await fetch(`${origin}/v1/pets`, { headers: { authorization: `Bearer ${LIMITED}` } })
  for (const c of CASES) {
    answers[`${c.method} ${c.target}`] = await recordAnswer(`${origin}${c.target}`, {
      method: c.method,
      headers: headersOf(c),
      body: c.body,
    })
  }
  return answers
}

const fmt = (n: number, width = 8, digits = 0): string => n.toFixed(digits).padStart(width)

const load = (server: Spawned, c: Case): Promise<LoadResult> =>
  loadWith({
    url: `${server.origin}${c.target}`,
    method: c.method,
    headers: headersOf(c),
    body: c.body,
    seconds: SECONDS,
    pid: server.child.pid,
  })

/** `server:startup`: the start-up figure alone (a recorded answer for the bare server, then 7 starts). */
const runStartUp = async (compareDir: string | undefined): Promise<void> => {
  const sandbox = await startSandbox(ROOT)
  const answers = await recordCases(sandbox.origin)
  await sandbox.stop()
  await startUp({
    root: ROOT,
    cli: CLI,
    keyFlags: KEY_FLAGS,
    key: KEY,
    answers,
    seconds: SECONDS,
    rounds: ROUNDS,
    compareDir,
  })
}

/** `server:redis`: one instance on Redis against one in memory, GET list, alone. */
const runRedis = async (compareDir: string | undefined): Promise<void> =>
  redisAgainstMemory({
    root: ROOT,
    cli: CLI,
    keyFlags: KEY_FLAGS,
    key: KEY,
    answers: {},
    seconds: SECONDS,
    rounds: ROUNDS,
    compareDir,
  })

export async function run(parts?: readonly string[]): Promise<void> {
  if (!existsSync(join(ROOT, CLI))) throw new Error('Build first: npm run build')
  const compareDir = process.env.BENCH_COMPARE
  if (parts?.includes('startup')) return runStartUp(compareDir)
  if (parts?.includes('redis')) return runRedis(compareDir)
  const sandbox = await startSandbox(ROOT)
  const other = compareDir === undefined ? undefined : await startSandbox(compareDir)
  const answers = await recordCases(sandbox.origin)
  if (other !== undefined) await recordCases(other.origin)
  const file = join(tmpdir(), `petstore-bench-answers-${process.pid}.json`)
  writeFileSync(file, JSON.stringify(answers))
  const bare = await spawnServer(['bench/support/bare-server.mjs', `@${file}`], ROOT)
  // Warm-up: every server's JIT has seen every case before a round counts.
  for (const c of CASES)
    for (const server of [bare, sandbox, other])
      if (server !== undefined)
        await loadWith({
          url: `${server.origin}${c.target}`,
          method: c.method,
          headers: headersOf(c),
          body: c.body,
          seconds: 1,
        })

  console.log(
    `autocannon, 50 connections, ${SECONDS} s a round, median of ${ROUNDS} rounds; bare and sandbox interleaved${other === undefined ? '' : `; compared: ${compareDir}`}\n`,
  )
  console.log(
    `${'case'.padEnd(22)} ${'bare req/s'.padStart(10)} ${'sandbox'.padStart(8)} ${'ratio'.padStart(6)} ${'target'.padStart(7)}  ${'p99 ms'.padStart(6)} ${'cpu µs'.padStart(7)} ${'bare µs'.padStart(7)}${other === undefined ? '' : `  ${'compared'.padStart(8)} ${'ratio'.padStart(6)} ${'cmp µs'.padStart(7)}`}`,
  )
  const results = new Map<string, { bare: number; own: number }>()
  for (const c of CASES) {
    const rounds: { bare: LoadResult; own: LoadResult; other?: LoadResult }[] = []
    for (let r = 0; r < ROUNDS; r++) {
      const bareLoad = await load(bare, c)
      const own = await load(sandbox, c)
      const compared = other === undefined ? undefined : await load(other, c)
      rounds.push({ bare: bareLoad, own, ...(compared === undefined ? {} : { other: compared }) })
    }
    const bareRps = median(rounds.map((x) => x.bare.rps))
    const ownRps = median(rounds.map((x) => x.own.rps))
    const ratio = ownRps / bareRps
    results.set(c.name, { bare: bareRps, own: ownRps })
    const goal = c.target_ratio === undefined ? '' : `>=${c.target_ratio}`
    const verdict = c.target_ratio === undefined ? ' ' : ratio >= c.target_ratio ? '✓' : '✗'
    const otherRps = other === undefined ? undefined : median(rounds.map((x) => x.other?.rps ?? 0))
    console.log(
      `${c.name.padEnd(22)} ${fmt(bareRps, 10)} ${fmt(ownRps)} ${fmt(ratio, 6, 2)} ${goal.padStart(6)}${verdict}  ${fmt(median(rounds.map((x) => x.own.p99)), 6)} ${fmt(median(rounds.map((x) => x.own.cpuUs)), 7, 1)} ${fmt(median(rounds.map((x) => x.bare.cpuUs)), 7, 1)}${otherRps === undefined ? '' : `  ${fmt(otherRps)} ${fmt(otherRps / bareRps, 6, 2)} ${fmt(median(rounds.map((x) => x.other?.cpuUs ?? 0)), 7, 1)}`}`,
    )
    if (bareRps < 2 * ownRps && c.target_ratio !== undefined)
      console.log(
        `  ! the bare server is not twice as fast as the sandbox here: the load client may be the limit, so the ratio reads low`,
      )
    const errors = median(rounds.map((x) => x.own.errors))
    if (errors > 0) console.log(`  ! ${errors} transport errors a round`)
  }
  const list = results.get('GET /v1/pets?limit=20')
  const session = results.get('GET list, session')
  if (list !== undefined && session !== undefined) {
    const gap = session.own / list.own
    console.log(
      `\nin a session against default: ${gap.toFixed(3)} (target within 5%: ${Math.abs(1 - gap) <= 0.05 ? '✓' : '✗'})`,
    )
  }
  await runExtras({
    root: ROOT,
    cli: CLI,
    keyFlags: KEY_FLAGS,
    key: KEY,
    bare,
    answers,
    seconds: SECONDS,
    rounds: ROUNDS,
    compareDir,
  })
  await Promise.all([sandbox.stop(), bare.stop(), other?.stop()])
}
