/**
 * Soak: a few minutes of mixed traffic against the standalone server in this
 * process, from a load client in a child process: keyed lists, creates and
 * gets over keep-alive, bad requests, and anonymous requests each from its own
 * loopback source address (127.x.y.z via `localAddress`, 60,000 of them, so
 * the anonymous buckets hit their cap). The server's RSS and heap are sampled
 * every 2 s and printed as a curve; the verdict compares the last quarter's
 * mean RSS with the second quarter's (after warm-up), in the same run.
 *
 * Nothing is reset during the run (a reset would also empty the rate
 * limiter), so the anonymous buckets reach their cap of 10,000 and stay there.
 * Pets are data and grow by design: creates are 3% of the traffic (a few
 * thousand pets, a few MB), shown in the curve beside RSS.
 *
 * Run: `npm run bench -- soak` (SOAK_SECONDS, default 180).
 */
import { spawn } from 'node:child_process'
import { createRateLimiter } from '../src/rate-limit/rate-limiter.js'
import { createSandboxServer } from '../src/server/index.js'

const SECONDS = Number(process.env.SOAK_SECONDS ?? 180)
const KEYS = 300
const SAMPLE_EVERY_MS = 2_000

const LOAD_CLIENT = `
import { Agent, request } from 'node:http'
const [port, keys, durationMs] = JSON.parse(process.argv[1])
const agent = new Agent({ keepAlive: true, maxSockets: 12 })
const statuses = {}
let sent = 0
let errors = 0
let address = 0
const end = performance.now() + durationMs
const pick = (list) => list[Math.floor(Math.random() * list.length)]
const nextAddress = () => {
  address = (address + 1) % 60000
  return '127.' + (1 + (address >> 16)) + '.' + ((address >> 8) & 255) + '.' + ((address & 255) || 1)
}
const one = () => new Promise((resolve) => {
  const r = Math.random()
  const key = pick(keys)
  let options = { host: '127.0.0.1', port, agent, method: 'GET', headers: { authorization: 'Bearer ' + key } }
  let path = '/v1/pets?limit=' + (1 + Math.floor(Math.random() * 100))
  let body
  if (r < 0.03) {
    options.method = 'POST'
    options.headers['content-type'] = 'application/json'
    path = '/v1/pets'
    body = JSON.stringify({ name: 'Soak ' + sent, categoryId: 1 + (sent % 5) })
  } else if (r < 0.1) {
    path = '/v1/pets/' + (1 + Math.floor(Math.random() * 40))
  } else if (r < 0.15) {
    path = pick(['/v1/pets/%ff', '/v1/nope', '/v1/pets?limit=0', '/v1/pets?api_key=leak'])
  } else if (r < 0.55) {
    options = { host: '127.0.0.1', port, agent: false, localAddress: nextAddress(), method: 'GET', headers: {} }
  }
  const req = request({ ...options, path }, (res) => {
    res.resume()
    res.on('end', () => { statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1; sent++; resolve() })
  })
  req.on('error', () => { errors++; resolve() })
  req.end(body)
})
await Promise.all(Array.from({ length: 16 }, async () => { while (performance.now() < end) await one() }))
agent.destroy()
process.stdout.write(JSON.stringify({ sent, errors, statuses }))
`

const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1)

export const run = async (): Promise<void> => {
  if (!process.argv.includes('soak')) {
    console.log('skipped: a soak takes minutes; run `npm run bench -- soak`.')
    return
  }
  const limiter = createRateLimiter()
  const app = createSandboxServer({ seed: 1, limiter })
  const { port } = await app.listen(0, '127.0.0.1')
  const base = `http://127.0.0.1:${port}/__sandbox`
  const keys = Array.from({ length: KEYS }, (_, i) => `soak-key-${i}`)
  for (const [i, key] of keys.entries()) {
    await fetch(`${base}/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key, plan: i % 2 === 0 ? 'enterprise' : 'business' }),
    })
  }

  const samples: { t: number; rss: number; heap: number; buckets: number; pets: number }[] = []
  const started = performance.now()
  const sample = () => {
    const { rss, heapUsed } = process.memoryUsage()
    samples.push({
      t: (performance.now() - started) / 1000,
      rss,
      heap: heapUsed,
      buckets: limiter.size,
      pets: app.sandbox.db.pets.count,
    })
  }
  const sampler = setInterval(sample, SAMPLE_EVERY_MS)

  const child = spawn(process.execPath, [
    '--input-type=module',
    '-e',
    LOAD_CLIENT,
    JSON.stringify([port, keys, SECONDS * 1000]),
  ])
  let out = ''
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString()
  })
  child.stderr.pipe(process.stderr)
  await new Promise<void>((resolve) => child.once('exit', () => resolve()))
  clearInterval(sampler)
  sample()
  await app.close()

  console.log('| t (s) | RSS (MB) | heap (MB) | rate-limit buckets | pets |')
  console.log('| ----- | -------- | --------- | ------------------ | ---- |')
  const every = Math.max(1, Math.round(10_000 / SAMPLE_EVERY_MS))
  for (const [i, s] of samples.entries()) {
    if (i % every !== 0 && i !== samples.length - 1) continue
    console.log(
      `| ${s.t.toFixed(0).padStart(5)} | ${mb(s.rss).padStart(8)} | ${mb(s.heap).padStart(9)} | ${String(s.buckets).padStart(18)} | ${String(s.pets).padStart(4)} |`,
    )
  }
  const quarter = Math.max(1, Math.floor(samples.length / 4))
  const mean = (list: typeof samples) => list.reduce((sum, s) => sum + s.rss, 0) / list.length
  const second = mean(samples.slice(quarter, 2 * quarter))
  const last = mean(samples.slice(-quarter))
  const load = JSON.parse(out || '{}') as { sent?: number; errors?: number; statuses?: object }
  console.log(
    `\n${load.sent ?? 0} requests (${((load.sent ?? 0) / SECONDS).toFixed(0)}/s), ${load.errors ?? 0} connection errors, statuses ${JSON.stringify(load.statuses ?? {})}`,
  )
  console.log(
    `RSS, last quarter vs second quarter: ${(last / second).toFixed(3)}x (${mb(second)} → ${mb(last)} MB); peak ${mb(Math.max(...samples.map((s) => s.rss)))} MB; ${last / second < 1.1 ? 'flat' : 'STILL GROWING'}`,
  )
}
