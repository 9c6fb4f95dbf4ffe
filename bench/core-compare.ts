/**
 * The core's CPU per request against another checkout's build, in one process:
 * both built `createSandboxCore`s answer the same request in alternating
 * batches, timed by `process.cpuUsage` (no sockets, no load client, so a
 * shared machine's scheduling moves both alike). What to run beside
 * `npm run bench -- server` when its req/s swing between rounds.
 *
 *   BENCH_COMPARE=../previous-checkout npm run bench -- core-compare
 *   BENCH_COMPARE=../previous-checkout npm run bench -- core-compare:/v1/pets/7
 */
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { median } from './support/load.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const BATCH = 5_000
const ROUNDS = 8

interface Core {
  handle(request: {
    method: string
    url: string
    headers: Record<string, string>
  }): Promise<{ status: number } | null>
}
type CoreApi = { createSandboxCore(options: object): Core }

const load = async (dir: string): Promise<Core> => {
  const entry = join(dir, 'dist', 'index.js')
  if (!existsSync(entry)) throw new Error(`Failed to compare: ${entry} is missing. Build it first.`)
  const api = (await import(pathToFileURL(entry).href)) as CoreApi
  return api.createSandboxCore({})
}

/** µs of CPU per request over `count` requests. */
const cpuPerRequest = async (core: Core, url: string, count: number): Promise<number> => {
  const request = { method: 'GET', url, headers: { authorization: 'Bearer sandbox-enterprise' } }
  const start = process.cpuUsage()
  for (let i = 0; i < count; i++) await core.handle(request)
  const used = process.cpuUsage(start)
  return (used.user + used.system) / count
}

export async function run(parts?: readonly string[]): Promise<void> {
  const other = process.env.BENCH_COMPARE
  if (other === undefined)
    throw new Error('Failed to compare: set BENCH_COMPARE=../other-checkout.')
  const path = parts?.[0] ?? '/v1/pets?limit=20'
  const url = `https://petstore.example.com${path}`
  const cores = { this: await load(ROOT), compared: await load(resolve(other)) }
  for (const core of Object.values(cores)) await cpuPerRequest(core, url, BATCH) // warm-up
  const times: Record<keyof typeof cores, number[]> = { this: [], compared: [] }
  for (let round = 0; round < ROUNDS; round++) {
    const order =
      round % 2 === 0 ? (['this', 'compared'] as const) : (['compared', 'this'] as const)
    for (const name of order) times[name].push(await cpuPerRequest(cores[name], url, BATCH))
  }
  const mine = median(times.this)
  const theirs = median(times.compared)
  console.log(`GET ${path}, ${ROUNDS} alternating rounds of ${BATCH} requests, CPU µs a request:`)
  console.log(
    `  this build      ${times.this.map((t) => t.toFixed(1)).join(' ')}  median ${mine.toFixed(1)}`,
  )
  console.log(
    `  ${other}  ${times.compared.map((t) => t.toFixed(1)).join(' ')}  median ${theirs.toFixed(1)}`,
  )
  console.log(`  ratio ${(mine / theirs).toFixed(3)} (above 1: this build is slower)`)
}
