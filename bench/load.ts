/**
 * Issue 11, "light to load": what loading the sandbox costs, each figure
 * beside a baseline measured in the same run. Everything runs the built
 * package as a user installs it (npm pack, unpacked into a temp project).
 *
 * - per test file: a fresh Node process importing `petstore-sandbox/node`,
 *   `setupSandbox()`, `listen()`, the first answer; against `msw/node` with
 *   one trivial handler. Then 300 more requests in the same process: the
 *   in-process latency against the same trivial handler.
 * - a suite of 40 vitest files using `setupSandbox`, against the same suite
 *   with a trivial MSW handler: total wall time.
 * - the browser bundle (see browser-bundle.ts) and the service worker's start
 *   to the first answer in Chromium, against a plain msw worker.
 * - 1,000,000 pets: the built CLI's start-up to the first answer, RSS (and its
 *   peak), `POST /__sandbox/reset`; against 25 pets.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { build } from 'esbuild'
import { installPacked, ROOT } from '../test/support/install-packed.js'
import { run as runBundleSize } from './browser-bundle.js'

const execFileAsync = promisify(execFile)
const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}
const ratio = (value: number, baseline: number): string => `${(value / baseline).toFixed(2)}x`
const ms = (value: number): string => `${value.toFixed(0)} ms`

const PETS_URL = 'https://api.example.test/v1/pets'
const HEADERS = "{ authorization: 'Bearer sandbox-enterprise' }"
const REPEAT = 300

const measureScript = (setup: string): string => `
${setup}
const headers = ${HEADERS}
const first = await fetch('${PETS_URL}', { headers })
if (first.status !== 200) throw new Error('status ' + first.status)
await first.text()
const firstAnswer = performance.now()
const started = performance.now()
for (let i = 0; i < ${REPEAT}; i++) await (await fetch('${PETS_URL}', { headers })).text()
const each = (performance.now() - started) / ${REPEAT}
close()
process.stdout.write(JSON.stringify({ firstAnswer, each }))
`
const SANDBOX_FILE = measureScript(`
const { setupSandbox } = await import('petstore-sandbox/node')
const sandbox = setupSandbox()
sandbox.listen()
const close = () => sandbox.close()
`)
const MSW_FILE = measureScript(`
const { setupServer } = await import('msw/node')
const { http, HttpResponse } = await import('msw')
const server = setupServer(http.get('${PETS_URL}', () => HttpResponse.json([{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }])))
server.listen({ onUnhandledRequest: 'error' })
const close = () => server.close()
`)

const runNode = async (
  project: string,
  script: string,
): Promise<{ firstAnswer: number; each: number }> => {
  const { stdout } = await execFileAsync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: project,
    timeout: 60_000,
  })
  return JSON.parse(stdout) as { firstAnswer: number; each: number }
}

const perTestFile = async (project: string, rounds: number): Promise<void> => {
  const sandbox: { firstAnswer: number; each: number }[] = []
  const msw: { firstAnswer: number; each: number }[] = []
  for (let round = 0; round < rounds; round++) {
    // Interleaved, so load drifts on the shared machine hit both alike.
    msw.push(await runNode(project, MSW_FILE))
    sandbox.push(await runNode(project, SANDBOX_FILE))
  }
  const first = median(sandbox.map((r) => r.firstAnswer))
  const firstMsw = median(msw.map((r) => r.firstAnswer))
  const each = median(sandbox.map((r) => r.each))
  const eachMsw = median(msw.map((r) => r.each))
  console.log(`per test file: fresh process, import + setup + first answer (median of ${rounds})`)
  console.log(`  msw/node, one trivial handler (baseline)  ${ms(firstMsw)}`)
  console.log(
    `  petstore-sandbox/node setupSandbox        ${ms(first)}  ${ratio(first, firstMsw)} (target <= 1.3x)`,
  )
  console.log(`in-process latency, ${REPEAT} GET /v1/pets after the first (median of ${rounds})`)
  console.log(`  msw trivial handler (baseline)            ${(eachMsw * 1000).toFixed(0)} µs`)
  console.log(
    `  sandbox                                   ${(each * 1000).toFixed(0)} µs  ${ratio(each, eachMsw)} (target <= 1.1x)`,
  )
}

const suiteFile = (setup: string, pets: number): string => `
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
${setup}
const headers = ${HEADERS}
it('lists pets', async () => {
  const response = await fetch('${PETS_URL}?limit=20', { headers })
  expect(response.status).toBe(200)
  expect((await response.json()).length).toBe(${pets})
})
it('creates a pet', async () => {
  const response = await fetch('${PETS_URL}', { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Rex', categoryId: 1 }) })
  expect(response.status).toBe(201)
})
`
const SANDBOX_SUITE_FILE = suiteFile(
  `import { setupSandbox } from 'petstore-sandbox/node'
const sandbox = setupSandbox()
beforeAll(() => sandbox.listen())
afterEach(() => sandbox.reset())
afterAll(() => sandbox.close())`,
  20,
)
const MSW_SUITE_FILE = suiteFile(
  `import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
const pet = { id: 1, name: 'Rex', categoryId: 1, status: 'available' }
const server = setupServer(
  http.get('${PETS_URL}', () => HttpResponse.json([pet])),
  http.post('${PETS_URL}', () => HttpResponse.json(pet, { status: 201 })),
)
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())`,
  1,
)

const FILES = 40
const runSuite = async (project: string, folder: string): Promise<number> => {
  const vitest = join(ROOT, 'node_modules/vitest/vitest.mjs')
  const started = performance.now()
  await execFileAsync(
    process.execPath,
    [vitest, 'run', '--root', project, '--reporter=dot', folder],
    {
      cwd: project,
      timeout: 300_000,
      env: { ...process.env, CI: '1' },
    },
  )
  return performance.now() - started
}

const fortyFileSuite = async (project: string, rounds: number): Promise<void> => {
  for (const [folder, source] of [
    ['sandbox-suite', SANDBOX_SUITE_FILE],
    ['msw-suite', MSW_SUITE_FILE],
  ] as const) {
    mkdirSync(join(project, folder))
    for (let i = 0; i < FILES; i++)
      writeFileSync(join(project, folder, `file-${i}.test.js`), source)
  }
  writeFileSync(join(project, 'vitest.config.js'), 'export default {}\n')
  const sandbox: number[] = []
  const msw: number[] = []
  for (let round = 0; round < rounds; round++) {
    msw.push(await runSuite(project, 'msw-suite/'))
    sandbox.push(await runSuite(project, 'sandbox-suite/'))
  }
  console.log(`${FILES} vitest files, 2 tests each, total wall time (median of ${rounds} runs)`)
  console.log(`  trivial MSW handlers (baseline)  ${ms(median(msw))}`)
  console.log(
    `  setupSandbox                     ${ms(median(sandbox))}  ${ratio(median(sandbox), median(msw))} (target <= 1.3x)`,
  )
}

const PAGE = '<!doctype html><meta charset="utf-8"><script type="module" src="/app.js"></script>'
const FIRST_ANSWER = `
const response = await fetch('/v1/pets', { headers: { authorization: 'Bearer sandbox-free' } })
await response.json()
window.__firstAnswer = performance.now()
`
const BROWSER_APPS = {
  sandbox: `import { startSandbox } from 'petstore-sandbox/browser'
await startSandbox({ quiet: true })
${FIRST_ANSWER}`,
  msw: `import { http, HttpResponse } from 'msw'
import { setupWorker } from 'msw/browser'
await setupWorker(http.get('/v1/pets', () => HttpResponse.json([{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }]))).start({ quiet: true })
${FIRST_ANSWER}`,
}

const workerStart = async (project: string, rounds: number): Promise<void> => {
  const { launchChromium } = await import('../test/support/browser/launch-chromium.js')
  const roots: Record<string, string> = {}
  for (const [name, source] of Object.entries(BROWSER_APPS)) {
    const root = join(project, `page-${name}`)
    mkdirSync(root)
    await build({
      stdin: { contents: source, resolveDir: project, loader: 'js' },
      outfile: join(root, 'app.js'),
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      logLevel: 'error',
    })
    writeFileSync(join(root, 'index.html'), PAGE)
    copyFileSync(
      createRequire(join(project, 'package.json')).resolve('msw/mockServiceWorker.js'),
      join(root, 'mockServiceWorker.js'),
    )
    roots[name] = root
  }
  // One server per app: each its own origin, so the two service workers never meet.
  const serve = async (root: string) => {
    const server = createServer((request, response) => {
      const file = new URL(request.url ?? '/', 'http://x').pathname.slice(1) || 'index.html'
      try {
        const body = readFileSync(join(root, file))
        const type = file.endsWith('.js') ? 'text/javascript' : 'text/html'
        response.writeHead(200, { 'content-type': type }).end(body)
      } catch {
        response.writeHead(404).end()
      }
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` }
  }
  const servers = {
    sandbox: await serve(roots.sandbox as string),
    msw: await serve(roots.msw as string),
  }
  const browser = await launchChromium()
  const measure = async (name: 'sandbox' | 'msw'): Promise<number> => {
    const context = await browser.newContext()
    const page = await context.newPage()
    const messages: string[] = []
    page.on('console', (message) => messages.push(message.text()))
    page.on('pageerror', (error) => messages.push(String(error)))
    // Each context a fresh profile: a first visit (worker install included) every time.
    await page.goto(servers[name].url)
    await page
      .waitForFunction(() => (window as { __firstAnswer?: number }).__firstAnswer, null, {
        timeout: 30_000,
      })
      .catch((error: unknown) => {
        throw new Error(`${name}: no answer (${String(error)}); page said: ${messages.join(' | ')}`)
      })
    const value = await page.evaluate(
      () => (window as unknown as { __firstAnswer: number }).__firstAnswer,
    )
    await context.close()
    return value
  }
  const sandbox: number[] = []
  const msw: number[] = []
  try {
    for (let round = 0; round < rounds; round++) {
      msw.push(await measure('msw'))
      sandbox.push(await measure('sandbox'))
    }
  } finally {
    await browser.close()
    for (const { server } of Object.values(servers)) server.close()
  }
  console.log(
    `Chromium: navigation start to the first answer through the worker (median of ${rounds})`,
  )
  console.log(`  plain msw worker (baseline)  ${ms(median(msw))}`)
  console.log(
    `  startSandbox                 ${ms(median(sandbox))}  ${ratio(median(sandbox), median(msw))}`,
  )
}

interface Started {
  child: ChildProcess
  origin: string
  startup: number
}
const startCli = (args: string[]): Promise<Started> =>
  new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(
      process.execPath,
      ['dist/cli/petstore-sandbox.js', '--port', '0', '--quiet', ...args],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    )
    let out = ''
    let found = false
    child.stdout?.on('data', async (chunk: Buffer) => {
      out += chunk.toString()
      const origin = /serving (http:\/\/[^\s/]+)/.exec(out)?.[1]
      if (origin === undefined || found) return
      found = true
      const response = await fetch(`${origin}/v1/pets?limit=1`, {
        headers: { authorization: 'Bearer sandbox-free' },
      })
      await response.text()
      if (response.status !== 200) reject(new Error(`status ${response.status}`))
      resolve({ child, origin, startup: performance.now() - started })
    })
    child.on('error', reject)
    child.on('exit', (code) => {
      if (!found) reject(new Error(`the CLI exited with ${code}`))
    })
  })

const memoryOf = (pid: number): { rss: number; peak: number } => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (field: string) =>
    Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN)
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 }
}

const timeReset = async (origin: string): Promise<number> => {
  const started = performance.now()
  const response = await fetch(`${origin}/__sandbox/reset`, { method: 'POST' })
  await response.text()
  if (response.status >= 300) throw new Error(`reset answered ${response.status}`)
  return performance.now() - started
}

const millionPets = async (): Promise<void> => {
  const figures: Record<string, { startup: number; rss: number; peak: number; reset: number }> = {}
  for (const [name, args] of [
    ['25 pets (baseline)', []],
    ['1,000,000 pets', ['--pets', '1000000']],
  ] as const) {
    const { child, origin, startup } = await startCli([...args])
    try {
      const afterStart = memoryOf(child.pid as number)
      const resets = [await timeReset(origin), await timeReset(origin), await timeReset(origin)]
      const afterReset = memoryOf(child.pid as number)
      figures[name] = {
        startup,
        rss: afterStart.rss,
        peak: afterReset.peak,
        reset: median(resets),
      }
    } finally {
      child.kill('SIGTERM')
    }
  }
  const base = figures['25 pets (baseline)']
  const big = figures['1,000,000 pets']
  if (base === undefined || big === undefined) return
  console.log(
    'built CLI: start-up to the first answer, RSS after it, peak RSS, POST /__sandbox/reset (median of 3)',
  )
  console.log('| pets | start-up | RSS | peak RSS | reset |')
  console.log('| --- | --- | --- | --- | --- |')
  for (const [name, f] of Object.entries(figures))
    console.log(
      `| ${name} | ${ms(f.startup)} | ${f.rss.toFixed(0)} MB | ${f.peak.toFixed(0)} MB | ${ms(f.reset)} |`,
    )
  console.log(
    `1M vs 25: start-up ${ratio(big.startup, base.startup)} (target < 3 s), RSS ${ratio(big.rss, base.rss)} (target < 1 GB), reset ${ratio(big.reset, base.reset)} (target < 1 s)`,
  )
}

const PARTS = ['file', 'suite', 'bundle', 'worker', 'million'] as const
/** `npm run bench -- load` runs all; `npm run bench -- load:file,bundle` a selection. */
export const run = async (only: readonly string[] = PARTS): Promise<void> => {
  const wanted = new Set(only)
  const project = installPacked('petstore-sandbox-bench-', ['vitest'])
  try {
    if (wanted.has('file')) {
      await perTestFile(project, 12)
      console.log()
    }
    if (wanted.has('suite')) {
      await fortyFileSuite(project, 3)
      console.log()
    }
    if (wanted.has('bundle')) {
      await runBundleSize()
      console.log()
    }
    if (wanted.has('worker')) {
      await workerStart(project, 10)
      console.log()
    }
    if (wanted.has('million')) await millionPets()
  } finally {
    rmSync(project, { recursive: true, force: true })
  }
}
