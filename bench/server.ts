/**
 * The standalone server against a bare node:http server that returns the same
 * bytes, loaded by the same keep-alive client (a child process) in this run;
 * then start-up time of the built CLI, RSS, and a deep page of 100,000 pets.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { encodeCursor } from '../src/operations/cursor.js'
import { createSandboxServer } from '../src/server/index.js'
import { createNoopLimiter } from './rate-limit.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const CONNECTIONS = 16
const DURATION_MS = 4_000
const KEY = 'bench-enterprise'
const HEADERS = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }
const NEW_PET = JSON.stringify({ name: 'Bench', categoryId: 1 })

// The load client: N keep-alive connections, each sending back to back for a fixed time.
const LOAD_CLIENT = `
import { Agent, request } from 'node:http'
const [url, method, body, headers, connections, duration] = JSON.parse(process.argv[1])
const agent = new Agent({ keepAlive: true, maxSockets: connections })
const latencies = []
let errors = 0
const end = performance.now() + duration
const one = () => new Promise((resolve) => {
  const started = performance.now()
  const req = request(url, { method, headers, agent }, (res) => {
    res.resume()
    res.on('end', () => { if (res.statusCode >= 400) errors++; latencies.push(performance.now() - started); resolve() })
  })
  req.on('error', () => { errors++; resolve() })
  req.end(body || undefined)
})
await Promise.all(Array.from({ length: connections }, async () => { while (performance.now() < end) await one() }))
latencies.sort((a, b) => a - b)
process.stdout.write(JSON.stringify({ rps: latencies.length / (duration / 1000), p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0, errors }))
agent.destroy()
`

interface Load {
  rps: number
  p99: number
  errors: number
}

const load = (url: string, method: string, body: string): Promise<Load> =>
  new Promise((resolve, reject) => {
    const args = JSON.stringify([url, method, body, HEADERS, CONNECTIONS, DURATION_MS])
    const child = spawn(process.execPath, ['--input-type=module', '-e', LOAD_CLIENT, args])
    let out = ''
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString()
    })
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as Load) : reject(new Error(`load client exit ${code}`)),
    )
  })

/** A bare node:http server answering each path with recorded bytes. */
const startBare = async (
  answers: Map<string, { status: number; headers: Record<string, string>; body: string }>,
) => {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume()
    req.on('end', () => {
      const answer = answers.get(`${req.method} ${req.url}`)
      if (answer === undefined) {
        res.writeHead(404).end()
        return
      }
      res.writeHead(answer.status, answer.headers)
      res.end(answer.body)
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

const record = async (url: string, method: string, body: string) => {
  const response = await fetch(url, { method, headers: HEADERS, body: body || null })
  const headers: Record<string, string> = {}
  response.headers.forEach((v, k) => {
    if (k !== 'date' && k !== 'connection' && k !== 'keep-alive') headers[k] = v
  })
  return { status: response.status, headers, body: await response.text() }
}

const fmt = (n: number, digits = 0) => n.toFixed(digits).padStart(8)

/** Spawns the built CLI; resolves with ms to the first 200 and the RSS (kB) after it. */
const startCli = (args: string[]): Promise<{ ms: number; rssKb: number }> =>
  new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(
      process.execPath,
      ['dist/cli/petstore-sandbox.js', '--port', '0', '--quiet', ...args],
      {
        cwd: ROOT,
      },
    )
    let out = ''
    child.stdout.on('data', async (c: Buffer) => {
      out += c.toString()
      const origin = /serving (http:\/\/[^\s/]+)/.exec(out)?.[1]
      if (origin === undefined || out.includes('\u0000')) return
      out += '\u0000'
      const response = await fetch(`${origin}/v1/pets`, {
        headers: { authorization: 'Bearer sandbox-free' },
      })
      await response.text()
      const ms = performance.now() - started
      const { readFile } = await import('node:fs/promises')
      const status = await readFile(`/proc/${child.pid}/status`, 'utf8').catch(() => '')
      const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN)
      child.kill('SIGTERM')
      response.status === 200
        ? resolve({ ms, rssKb })
        : reject(new Error(`status ${response.status}`))
    })
    child.on('error', reject)
  })

export async function run(): Promise<void> {
  const app = createSandboxServer({
    keys: { [KEY]: { plan: 'enterprise', perMinute: 1e9, perDay: 1e12 } },
  })
  const { url: origin } = await app.listen(0, '127.0.0.1')
  const cases = [
    { name: 'GET  /v1/pets?limit=20', path: '/v1/pets?limit=20', method: 'GET', body: '' },
    { name: 'POST /v1/pets', path: '/v1/pets', method: 'POST', body: NEW_PET },
  ]
  const answers = new Map()
  for (const c of cases)
    answers.set(`${c.method} ${c.path}`, await record(`${origin}${c.path}`, c.method, c.body))
  const bare = await startBare(answers)
  console.log(`${CONNECTIONS} keep-alive connections, ${DURATION_MS / 1000} s each\n`)
  console.log('case                      sandbox req/s  p99 ms   bare req/s  p99 ms   ratio')
  for (const c of cases) {
    const bareLoad = await load(`${bare.origin}${c.path}`, c.method, c.body)
    const own = await load(`${origin}${c.path}`, c.method, c.body)
    console.log(
      `${c.name.padEnd(24)} ${fmt(own.rps)} ${fmt(own.p99, 1)} ${fmt(bareLoad.rps)} ${fmt(bareLoad.p99, 1)} ${fmt(own.rps / bareLoad.rps, 2)}${own.errors > 0 ? ` (${own.errors} errors)` : ''}  (target >= 0.25)`,
    )
  }
  // The limiter over HTTP: the same server with a no-op limiter, rounds interleaved so load
  // drifts hit both alike; the spread between rounds of one server is the noise.
  const unlimited = createSandboxServer({ limiter: createNoopLimiter() })
  const unlimitedOrigin = (await unlimited.listen(0, '127.0.0.1')).url
  const withLimiter: number[] = []
  const withoutLimiter: number[] = []
  for (let round = 0; round < 3; round++) {
    withLimiter.push((await load(`${origin}/v1/pets?limit=20`, 'GET', '')).rps)
    withoutLimiter.push((await load(`${unlimitedOrigin}/v1/pets?limit=20`, 'GET', '')).rps)
  }
  const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length
  const spread = (xs: number[]): number => (Math.max(...xs) - Math.min(...xs)) / mean(xs)
  console.log(
    `\nlimiter over HTTP (GET, 3 interleaved rounds): with ${fmt(mean(withLimiter))} req/s, without ${fmt(mean(withoutLimiter))} req/s, ratio ${(mean(withLimiter) / mean(withoutLimiter)).toFixed(3)}; spread between rounds of one server ${(spread(withoutLimiter) * 100).toFixed(1)}% / ${(spread(withLimiter) * 100).toFixed(1)}%`,
  )
  await unlimited.close()
  bare.server.close()
  await app.close()

  // A page from the middle of 100,000 pets against the first page, same server, same client.
  const big = createSandboxServer({
    pets: 100_000,
    keys: { [KEY]: { plan: 'enterprise', perMinute: 1e9, perDay: 1e12 } },
  })
  const bigOrigin = (await big.listen(0, '127.0.0.1')).url
  const firstPage = await load(`${bigOrigin}/v1/pets?limit=20`, 'GET', '')
  const middlePage = await load(
    `${bigOrigin}/v1/pets?limit=20&cursor=${encodeCursor(50_000)}`,
    'GET',
    '',
  )
  console.log(
    `\n100,000 pets: first page ${fmt(firstPage.rps)} req/s p99 ${firstPage.p99.toFixed(1)} ms; middle page ${fmt(middlePage.rps)} req/s p99 ${middlePage.p99.toFixed(1)} ms; middle/first ${(middlePage.rps / firstPage.rps).toFixed(2)} (target ~1)`,
  )
  await big.close()

  if (!existsSync(`${ROOT}dist/cli/petstore-sandbox.js`)) {
    console.log('\nstart-up and RSS skipped: build first (npm run build)')
    return
  }
  const startups: number[] = []
  let rss25 = 0
  for (let i = 0; i < 5; i++) {
    const { ms, rssKb } = await startCli([])
    startups.push(ms)
    rss25 = rssKb
  }
  startups.sort((a, b) => a - b)
  const rssBig = (await startCli(['--pets', '100000'])).rssKb
  console.log(
    `\nstart-up to the first 200 (built CLI, median of 5): ${startups[2]?.toFixed(0)} ms (min ${startups[0]?.toFixed(0)}; target < 300)`,
  )
  console.log(
    `RSS: ${(rss25 / 1024).toFixed(0)} MB with 25 pets, ${(rssBig / 1024).toFixed(0)} MB with 100,000 pets`,
  )
}
