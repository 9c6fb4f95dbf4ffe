/**
 * Issue 31 item 2 (Deliver 2): the sandbox in front of a hostile upstream.
 * The hostile deployment (test/support/hostile-upstream.mjs) runs as a
 * process of its own; the sandbox server (createSandboxServer, the same code
 * the CLI runs) runs in this process, so its event loop is measured with
 * perf_hooks' monitorEventLoopDelay and its memory with RSS sampled every
 * 20 ms. Each case sends a few requests on loopback and waits for the
 * answers; the figures are set against an idle baseline measured first, in
 * the same run.
 *
 *   npm run bench -- hostile-upstream
 *
 * Bounded: about 30 requests per case, 300 answers of 256 KiB recorded, a
 * 1 s upstream timeout; the whole run takes well under a minute.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { createSandboxServer } from '../src/server/create-sandbox-server.js'

const HOSTILE = fileURLToPath(new URL('../test/support/hostile-upstream.mjs', import.meta.url))
const AUTH = { authorization: 'Bearer sandbox-free' }
const MB = 1024 * 1024

const startHostile = (): Promise<{ child: ChildProcess; url: string }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HOSTILE], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const match = /serving (http:\/\/[^\s/]+)/.exec(out)
      if (match?.[1] !== undefined) resolve({ child, url: `${match[1]}/v1` })
    })
    child.on('exit', (code) => reject(new Error(`The hostile upstream exited (${code}).`)))
  })

interface Figures {
  name: string
  statuses: string
  ms: number
  stallMs: number
  peakRss: number
}

/** Runs `work` with the event loop's delay and the RSS watched. */
const measure = async (name: string, work: () => Promise<number[]>): Promise<Figures> => {
  const delay = monitorEventLoopDelay({ resolution: 5 })
  let peakRss = process.memoryUsage().rss
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss)
  }, 20)
  delay.enable()
  const started = performance.now()
  const statuses = await work()
  const ms = performance.now() - started
  delay.disable()
  clearInterval(sampler)
  peakRss = Math.max(peakRss, process.memoryUsage().rss)
  const counts = new Map<number, number>()
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1)
  return {
    name,
    statuses: [...counts].map(([status, n]) => `${n}x${status}`).join(' '),
    ms,
    stallMs: delay.max / 1e6,
    peakRss,
  }
}

const times = async (n: number, url: string, parallel = 1): Promise<number[]> => {
  const statuses: number[] = []
  for (let i = 0; i < n; i += parallel) {
    const batch = Array.from({ length: Math.min(parallel, n - i) }, async () => {
      const response = await fetch(url, { headers: AUTH })
      await response.arrayBuffer()
      return response.status
    })
    statuses.push(...(await Promise.all(batch)))
  }
  return statuses
}

export const run = async (): Promise<void> => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-bench-hostile-'))
  const hostile = await startHostile()
  const recordFile = join(dir, 'bench.har')
  const plain = createSandboxServer({ upstream: { url: hostile.url, timeoutMs: 1_000 } })
  const recorder = createSandboxServer({
    upstream: { url: hostile.url, timeoutMs: 5_000, record: recordFile },
  })
  try {
    const { url: origin } = await plain.listen(0)
    const { url: recOrigin } = await recorder.listen(0)
    const api = `${origin}/v1/hostile`
    // Warm both paths (module loading, connections) before anything is measured.
    await times(3, `${api}/sized?bytes=1000`)
    await times(1, `${recOrigin}/v1/hostile/sized?bytes=1000`)
    const figures: Figures[] = []
    figures.push(
      await measure('idle (1 s, baseline)', async () => {
        await new Promise((resolve) => setTimeout(resolve, 1_000))
        return []
      }),
    )
    const idle = figures[0] as Figures
    figures.push(
      await measure('ordinary 10 KiB answers x30', () => times(30, `${api}/sized?bytes=10240`, 3)),
    )
    for (const bomb of ['gzip-bomb', 'deflate-bomb', 'br-bomb'])
      figures.push(await measure(`${bomb} x6 (2 at a time)`, () => times(6, `${api}/${bomb}`, 2)))
    figures.push(
      await measure('endless body x6 (2 at a time)', () => times(6, `${api}/endless`, 2)),
    )
    figures.push(await measure('dripping body x2 (1 s timeout)', () => times(2, `${api}/drip`, 2)))
    figures.push(
      await measure('Content-Length longer than sent, kept open x2', () =>
        times(2, `${api}/long-length-hang`, 2),
      ),
    )
    figures.push(
      await measure('Content-Length shorter than sent x10', () => times(10, `${api}/short-length`)),
    )
    figures.push(
      await measure('--record: 300 answers of 256 KiB (4 at a time)', () =>
        times(300, `${recOrigin}/v1/hostile/sized?bytes=262144`, 4),
      ),
    )
    console.log(
      `  ${'case'.padEnd(48)} ${'answers'.padEnd(14)} ${'time'.padStart(8)} ${'longest stall'.padStart(14)} ${'peak RSS'.padStart(10)} ${'vs idle'.padStart(8)}`,
    )
    for (const f of figures)
      console.log(
        `  ${f.name.padEnd(48)} ${f.statuses.padEnd(14)} ${`${f.ms.toFixed(0)} ms`.padStart(8)} ${`${f.stallMs.toFixed(1)} ms`.padStart(14)} ${`${(f.peakRss / MB).toFixed(0)} MB`.padStart(10)} ${`${(f.peakRss / idle.peakRss).toFixed(2)}x`.padStart(8)}`,
      )
    console.log(
      `  idle: longest stall ${idle.stallMs.toFixed(1)} ms, RSS ${(idle.peakRss / MB).toFixed(0)} MB; recording file ${(statSync(recordFile).size / MB).toFixed(0)} MB`,
    )
  } finally {
    await Promise.all([plain.close(), recorder.close()])
    hostile.child.kill('SIGTERM')
    rmSync(dir, { recursive: true, force: true })
  }
}
