/**
 * The worst client we can think of, against the built CLI with its default
 * settings (issue 24): for WORST_SECONDS (default 60) or WORST_REQUESTS
 * (default 300,000) requests, whichever ends first, 32 connections at a time,
 * each from one of 60,000 loopback source addresses (127.1.x.y), every
 * request with a head just under the limits (90 header lines, ~14 KB):
 *
 * - 40% GET /v1/pets?limit=100 with a public demo key, naming one of 5,000
 *   sessions (five times the cap: sessions are opened and evicted all along);
 * - 15% POST /v1/pets with a demo key and a 60 KB body the API refuses;
 * - 35% keyless GETs naming one of 100,000 sessions (401, then 429);
 * - 10% wrong keys naming one of 100,000 sessions.
 *
 * The server's RSS is read from /proc (VmRSS every 250 ms, VmHWM, the peak,
 * at the end) and compared with the same process's RSS when idle, measured in
 * the same run after a warm-up. Loopback only; nothing outside the machine.
 *
 * Run: `npm run bench -- worst-client` (it is skipped in a run of every benchmark).
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { spawnServer } from './support/load.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const SECONDS = Number(process.env.WORST_SECONDS ?? 60)
const MAX_REQUESTS = Number(process.env.WORST_REQUESTS ?? 300_000)
const CONNECTIONS = 32

const mb = (kb: number): string => `${(kb / 1024).toFixed(1)} MB`

/** A field of /proc/<pid>/status in kB (VmRSS, VmHWM). */
const statusKb = (pid: number, field: 'VmRSS' | 'VmHWM'): number => {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? Number.NaN)
}

interface LoadReport {
  sent: number
  errors: number
  statuses: Record<string, number>
  kinds: Record<string, number>
}

const runLoad = (port: number): Promise<LoadReport> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [
      'bench/support/worst-client-load.mjs',
      JSON.stringify({
        port,
        seconds: SECONDS,
        maxRequests: MAX_REQUESTS,
        connections: CONNECTIONS,
      }),
    ])
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
    })
    child.on('error', reject)
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out) as LoadReport)
        : reject(new Error(`load exited ${code}`)),
    )
  })

export const run = async (): Promise<void> => {
  if (!process.argv.includes('worst-client')) {
    console.log(
      'skipped: it runs a minute of hostile traffic; run `npm run bench -- worst-client`.',
    )
    return
  }
  const server = await spawnServer(['dist/cli/petstore-sandbox.js', '--port', '0', '--quiet'], ROOT)
  const pid = server.child.pid as number
  const port = Number(new URL(server.origin).port)
  try {
    // Warm-up: the code paths the attack uses, so the idle figure includes compiled code.
    for (let i = 0; i < 200; i++) {
      await fetch(`${server.origin}/v1/pets?limit=100&__session=warm-${i % 5}`, {
        headers: { authorization: 'Bearer sandbox-free' },
      }).then((r) => r.arrayBuffer())
      await fetch(`${server.origin}/v1/pets`).then((r) => r.arrayBuffer())
    }
    await fetch(`${server.origin}/__sandbox/reset`, { method: 'POST' })
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    const idle = statusKb(pid, 'VmRSS')
    const idleHwm = statusKb(pid, 'VmHWM')

    const samples: number[] = []
    const sampler = setInterval(() => samples.push(statusKb(pid, 'VmRSS')), 250)
    const started = performance.now()
    const load = await runLoad(port)
    const seconds = (performance.now() - started) / 1000
    clearInterval(sampler)
    const peak = statusKb(pid, 'VmHWM')
    const end = statusKb(pid, 'VmRSS')
    const sessions = (
      (await (await fetch(`${server.origin}/__sandbox/sessions`)).json()) as unknown[]
    ).length
    const journal = (
      (await (await fetch(`${server.origin}/__sandbox/requests`)).json()) as unknown[]
    ).length

    console.log(
      `worst client: ${load.sent} requests in ${seconds.toFixed(0)} s (${(load.sent / seconds).toFixed(0)}/s), ${CONNECTIONS} connections, ${load.errors} transport errors`,
    )
    console.log(`  kinds    ${JSON.stringify(load.kinds)}`)
    console.log(`  statuses ${JSON.stringify(load.statuses)}`)
    console.log(
      `  after: ${sessions} sessions alive (cap 1,000), default's journal ${journal} entries`,
    )
    const curve = samples.filter((_, i) => i % Math.max(1, Math.floor(samples.length / 12)) === 0)
    console.log(`  RSS curve (MB): ${curve.map((kb) => (kb / 1024).toFixed(0)).join(' ')}`)
    console.log(
      `  idle RSS ${mb(idle)} (peak before the attack ${mb(idleHwm)}); peak RSS under attack ${mb(peak)} = ${(peak / idle).toFixed(2)}x idle, +${mb(peak - idle)}; at the end ${mb(end)}`,
    )
  } finally {
    await server.stop()
  }
}
