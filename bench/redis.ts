/**
 * Shared state on Redis (issue 13): the standalone server on a Redis store
 * against the same server in memory, then two instances on one Redis against
 * one, each instance its own process, loaded by the same keep-alive client in
 * this run. Then the Redis commands per request, counted with MONITOR.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { Redis } from 'ioredis'
import '../src/state/redis/create-redis-state.js'
import { scriptNames } from '../src/state/redis/redis-script.js'
import { startTestRedis } from '../test/support/redis-server.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const CONNECTIONS = 16
const DURATION_MS = 4_000
const HEADERS = { authorization: 'Bearer bench-enterprise', 'content-type': 'application/json' }

// The load client: N keep-alive connections spread over the URLs, each sending back to back.
const LOAD_CLIENT = `
import { Agent, request } from 'node:http'
const [urls, method, body, headers, connections, duration] = JSON.parse(process.argv[1])
const agent = new Agent({ keepAlive: true, maxSockets: connections })
let done = 0
let errors = 0
const end = performance.now() + duration
const one = (url) => new Promise((resolve) => {
  const req = request(url, { method, headers, agent }, (res) => {
    res.resume()
    res.on('end', () => { if (res.statusCode >= 400) errors++; done++; resolve() })
  })
  req.on('error', () => { errors++; resolve() })
  req.end(body || undefined)
})
await Promise.all(Array.from({ length: connections }, async (_, i) => { while (performance.now() < end) await one(urls[i % urls.length]) }))
process.stdout.write(JSON.stringify({ rps: done / (duration / 1000), errors }))
agent.destroy()
`

/** N keep-alive connections to the URLs, back to back, for DURATION_MS: requests per second. */
export const load = (
  urls: string[],
  method: string,
  body = '',
): Promise<{ rps: number; errors: number }> =>
  new Promise((resolve, reject) => {
    const args = JSON.stringify([urls, method, body, HEADERS, CONNECTIONS, DURATION_MS])
    const child = spawn(process.execPath, ['--input-type=module', '-e', LOAD_CLIENT, args])
    let out = ''
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString()
    })
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`load client exit ${code}`)),
    )
  })

/** One sandbox server in its own process, on the store given (or in memory for ''). */
export const startInstance = (store: string): Promise<{ url: string; child: ChildProcess }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/redis-instance.ts', store], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let out = ''
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString()
      const line = out.split('\n')[0]
      if (out.includes('\n') && line !== undefined) resolve({ url: line.trim(), child })
    })
    child.once('exit', (code) => reject(new Error(`instance exited ${code}`)))
  })

/** Stops the instances' processes. */
export const stop = async (children: ChildProcess[]): Promise<void> => {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          child.removeAllListeners('exit')
          child.once('exit', () => resolve())
          child.kill('SIGTERM')
          setTimeout(() => child.kill('SIGKILL'), 5_000).unref()
        }),
    ),
  )
}

// The scripts' names by SHA-1 (each part of the Redis state declares its own).
const SCRIPT_NAMES = scriptNames()

/** Commands Redis receives from clients (not from scripts) while `work` runs, by script name. */
export const countCommands = async (url: string, work: () => Promise<void>) => {
  const client = new Redis(url)
  const monitor = await client.monitor()
  const seen = new Map<string, number>()
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    if (source.includes('lua')) return
    const name =
      args[0]?.toLowerCase() === 'evalsha' ? (SCRIPT_NAMES.get(args[1] ?? '') ?? 'script') : args[0]
    seen.set(name ?? '?', (seen.get(name ?? '?') ?? 0) + 1)
  })
  await work()
  // MONITOR lags the replies by a moment.
  await new Promise((r) => setTimeout(r, 200))
  monitor.disconnect()
  client.disconnect()
  return seen
}

export const run = async (): Promise<void> => {
  const redis = await startTestRedis()
  const all: ChildProcess[] = []
  try {
    const memory = await startInstance('')
    const first = await startInstance(redis.url)
    const second = await startInstance(redis.url)
    all.push(memory.child, first.child, second.child)
    const list = '/v1/pets?limit=20'
    // Warm-up: JIT, script cache, the instances' caches.
    for (const { url } of [memory, first, second]) await load([`${url}${list}`], 'GET')

    for (const [what, method, path, body] of [
      ['list (GET /v1/pets?limit=20)', 'GET', list, ''],
      [
        'create (POST /v1/pets)',
        'POST',
        '/v1/pets',
        JSON.stringify({ name: 'Bench', categoryId: 1 }),
      ],
    ] as const) {
      const inMemory = await load([`${memory.url}${path}`], method, body)
      const oneRedis = await load([`${first.url}${path}`], method, body)
      const twoRedis = await load([`${first.url}${path}`, `${second.url}${path}`], method, body)
      console.log(
        `${what}: memory ${inMemory.rps.toFixed(0)} req/s; Redis 1 instance ${oneRedis.rps.toFixed(0)} req/s = ${(oneRedis.rps / inMemory.rps).toFixed(2)}x memory (target >= 0.5x); Redis 2 instances ${twoRedis.rps.toFixed(0)} req/s = ${(twoRedis.rps / oneRedis.rps).toFixed(2)}x one instance (errors: ${inMemory.errors}/${oneRedis.errors}/${twoRedis.errors})`,
      )
    }

    const N = 200
    for (const [what, method, path, body] of [
      ['list', 'GET', list, undefined],
      ['create', 'POST', '/v1/pets', JSON.stringify({ name: 'Counted', categoryId: 1 })],
      ['get', 'GET', '/v1/pets/1', undefined],
    ] as const) {
      const seen = await countCommands(redis.url, async () => {
        for (let i = 0; i < N; i++) {
          const response = await fetch(`${first.url}${path}`, { method, headers: HEADERS, body })
          await response.text()
        }
      })
      const per = [...seen].map(([name, count]) => `${name} ${(count / N).toFixed(2)}`).join(', ')
      const total = [...seen.values()].reduce((a, b) => a + b, 0) / N
      // Written behind the answer, never waited on: the journal, its budget, last-use times.
      const behind = ['record', 'ledger', 'evict', 'register']
        .map((name) => seen.get(name) ?? 0)
        .reduce((a, b) => a + b, 0)
      console.log(
        `Redis commands per ${what} request (steady state, one instance, ${N} requests): ${total.toFixed(2)} (${per}); awaited round trips: ${(total - behind / N).toFixed(2)} (the journal, its server-wide budget and last-use times are written behind the answer)`,
      )
    }
  } finally {
    await stop(all)
    await redis.dispose()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run()
