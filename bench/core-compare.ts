/**
 * The core's CPU per request against another checkout's build, in one process:
 * both built `createSandboxCore`s answer the same request in alternating
 * batches, timed by `process.cpuUsage` (no sockets, no load client, so a
 * shared machine's scheduling moves both alike). What to run beside
 * `npm run bench -- server` when its req/s swing between rounds.
 *
 *   BENCH_COMPARE=../previous-checkout npm run bench -- core-compare
 *   BENCH_COMPARE=../previous-checkout npm run bench -- core-compare:list,get,create,429
 *   BENCH_COMPARE=../previous-checkout npm run bench -- core-compare:/v1/pets?status=sold
 *
 * Cases: `list` (GET /v1/pets?limit=20, the default), `get` (GET /v1/pets/7),
 * `create` (POST /v1/pets), `429` (a list on the free demo key, its quota
 * spent in the warm-up), `all` (those four), or a path (a GET of it). Every
 * case but `429` uses an enterprise key of the options whose quota no run
 * reaches (the demo enterprise key's 5,000 a minute would make every request
 * after the warm-up a 429); each batch's statuses are checked.
 * `BENCH_ROUNDS` (default 8) and `BENCH_BATCH` (default 5,000) size a run;
 * `BENCH_ENTRY=answerRequest` asks the core as the standalone server does
 * (the request already in the core's shape) instead of by `handle()`.
 *
 * The build imported first into a process ran 5-15 % faster there (the same
 * build on both sides read 0.85 one way round and 1.07 the other), so each
 * case runs twice, each time in a child process of its own with the builds
 * imported in one order, and the ratio printed last is the geometric mean of
 * the two orders' ratios.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { median } from './support/load.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const ORIGIN = 'https://petstore.example.com'
const UNLIMITED_KEY = 'bench-core-compare'

interface CoreRequest {
  method: string
  url: string
  headers: Record<string, string>
  body: Uint8Array | null
}
interface Core {
  handle(request: CoreRequest): Promise<{ status: number } | null>
  /** The server's way in: a request already in the core's shape, the answer at once when nothing waits. */
  answerRequest(request: CoreRequest): unknown
}
type CoreApi = { createSandboxCore(options: object): Core }

interface Case {
  label: string
  request: CoreRequest
  status: number
}

const keyed = (key: string): Record<string, string> => ({ authorization: `Bearer ${key}` })
const get = (path: string, key = UNLIMITED_KEY): CoreRequest => ({
  method: 'GET',
  url: `${ORIGIN}${path}`,
  headers: keyed(key),
  body: null,
})

const CASES: Record<string, () => Case> = {
  list: () => ({ label: 'GET /v1/pets?limit=20', request: get('/v1/pets?limit=20'), status: 200 }),
  get: () => ({ label: 'GET /v1/pets/7', request: get('/v1/pets/7'), status: 200 }),
  create: () => ({
    label: 'POST /v1/pets',
    request: {
      method: 'POST',
      url: `${ORIGIN}/v1/pets`,
      headers: { ...keyed(UNLIMITED_KEY), 'content-type': 'application/json' },
      body: new TextEncoder().encode('{"name":"Rex","categoryId":1,"tags":["good"]}'),
    },
    status: 201,
  }),
  '429': () => ({
    label: 'GET /v1/pets?limit=20 past the free quota (429)',
    request: get('/v1/pets?limit=20', 'sandbox-free'),
    status: 429,
  }),
}

const toCase = (part: string): Case => {
  const named = CASES[part]
  if (named !== undefined) return named()
  if (part.startsWith('/')) return { label: `GET ${part}`, request: get(part), status: 200 }
  throw new Error(
    `Failed to compare: unknown case "${part}". Use list, get, create, 429, all or a path such as /v1/pets/7.`,
  )
}

const load = async (dir: string): Promise<Core> => {
  const entry = join(dir, 'dist', 'index.js')
  if (!existsSync(entry)) throw new Error(`Failed to compare: ${entry} is missing. Build it first.`)
  const api = (await import(pathToFileURL(entry).href)) as CoreApi
  // One core per case and build: a case's pets or spent quota never reach another's.
  return api.createSandboxCore({
    keys: { [UNLIMITED_KEY]: { plan: 'enterprise', perMinute: 1e9, perDay: 1e9 } },
  })
}

/** `handle()` (the default: MSW, Playwright, your code) or `answerRequest` (the standalone server's). */
const ENTRY = process.env.BENCH_ENTRY ?? 'handle'

/** The answer's status by `ENTRY`. */
const statusOf = async (core: Core, request: CoreRequest): Promise<number> => {
  if (ENTRY === 'handle') return (await core.handle(request))?.status ?? 0
  const answer = (await core.answerRequest(request)) as { response: { status: number } } | null
  return answer?.response.status ?? 0
}

/** µs of CPU per request over `count` requests; throws when an answer is not the case's. */
const cpuPerRequest = async (core: Core, which: Case, count: number): Promise<number> => {
  const { request } = which
  let wrong: number | undefined
  const start = process.cpuUsage()
  for (let i = 0; i < count; i++) {
    const status = await statusOf(core, request)
    if (status !== which.status) wrong = status
  }
  const used = process.cpuUsage(start)
  if (wrong !== undefined)
    throw new Error(`Failed to compare: ${which.label} answered ${wrong}, not ${which.status}.`)
  return (used.user + used.system) / count
}

const positive = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback)
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`Failed to compare: ${name} must be a whole number >= 1.`)
  return value
}

type Times = Record<'this' | 'compared', number[]>

/** One case's alternating rounds in this process, the two builds imported in `order`. */
const measure = async (other: string, which: Case, order: Order): Promise<Times> => {
  const dirs = order === 'this-first' ? [ROOT, resolve(other)] : [resolve(other), ROOT]
  const [first, second] = [await load(dirs[0] as string), await load(dirs[1] as string)]
  const cores =
    order === 'this-first' ? { this: first, compared: second } : { this: second, compared: first }
  const rounds = positive('BENCH_ROUNDS', 8)
  const batch = positive('BENCH_BATCH', 5_000)
  // The 429 case spends the free key's minute and day quotas (60, 1,000) first.
  if (which.status === 429)
    for (const core of Object.values(cores))
      for (let i = 0; i < 1_000; i++) await core.handle(which.request)
  for (const core of Object.values(cores)) await cpuPerRequest(core, which, batch) // warm-up
  const times: Times = { this: [], compared: [] }
  for (let round = 0; round < rounds; round++) {
    const turn = round % 2 === 0 ? (['this', 'compared'] as const) : (['compared', 'this'] as const)
    for (const name of turn) times[name].push(await cpuPerRequest(cores[name], which, batch))
  }
  return times
}

type Order = 'this-first' | 'compared-first'
const ORDERS: readonly Order[] = ['this-first', 'compared-first']
const CHILD = 'BENCH_CORE_COMPARE_CHILD'

/** Runs `measure` in a child process (this file as its entry) and reads its times. */
const inChild = (other: string, part: string, order: Order): Times => {
  const child = spawnSync(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), part],
    { env: { ...process.env, BENCH_COMPARE: other, [CHILD]: order }, encoding: 'utf8' },
  )
  if (child.status !== 0)
    throw new Error(`Failed to compare ${part} (${order}): ${child.stderr || child.stdout}`)
  return JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '') as Times
}

const row = (times: readonly number[]): string =>
  `${times.map((t) => t.toFixed(2)).join(' ')}  median ${median(times).toFixed(2)}`

export async function run(parts?: readonly string[]): Promise<void> {
  const other = process.env.BENCH_COMPARE
  if (other === undefined)
    throw new Error('Failed to compare: set BENCH_COMPARE=../other-checkout.')
  if (ENTRY !== 'handle' && ENTRY !== 'answerRequest')
    throw new Error('Failed to compare: BENCH_ENTRY is handle or answerRequest.')
  const names = parts === undefined || parts.length === 0 ? ['list'] : parts
  const selected = names.flatMap((n) => (n === 'all' ? Object.keys(CASES) : [n]))
  for (const part of selected) {
    const which = toCase(part)
    const rounds = positive('BENCH_ROUNDS', 8)
    const batch = positive('BENCH_BATCH', 5_000)
    console.log(
      `${which.label} by ${ENTRY}(), ${rounds} alternating rounds of ${batch} requests in each import order, CPU µs a request:`,
    )
    const ratios: number[] = []
    for (const order of ORDERS) {
      const times = inChild(other, part, order)
      const ratio = median(times.this) / median(times.compared)
      ratios.push(ratio)
      console.log(`  ${order}`)
      console.log(`    this build      ${row(times.this)}`)
      console.log(`    ${other}  ${row(times.compared)}`)
      console.log(`    ratio ${ratio.toFixed(3)}`)
    }
    // The geometric mean of the two orders' ratios: the import order's advantage cancels.
    const ratio = Math.sqrt((ratios[0] as number) * (ratios[1] as number))
    console.log(`  ratio ${ratio.toFixed(3)} (both orders; above 1: this build is slower)`)
  }
}

const order = process.env[CHILD]
if (order === 'this-first' || order === 'compared-first') {
  const times = await measure(
    process.env.BENCH_COMPARE ?? '',
    toCase(process.argv[2] ?? 'list'),
    order,
  )
  console.log(JSON.stringify(times))
}
