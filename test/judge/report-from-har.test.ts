import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { runReportCommand } from '../../src/cli/report-command.js'
import type { ClientReport } from '../../src/index.js'
import { createSandboxServer } from '../../src/server/index.js'
import { spawnCli } from '../server/spawn-cli.js'
import { launchChromium } from '../support/browser/launch-chromium.js'

// `petstore-sandbox report --from FILE.har` (issue 23): the live rules over a
// recording. The sandbox's own requests.har gives the live report exactly;
// a browser's recording (Playwright's recordHar, Chromium) is judged from
// its Authorization headers.
const app = createSandboxServer({
  keys: { 'tiny-quota': { plan: 'enterprise', perMinute: 2, perDay: 1_000 } },
})
let origin = ''
let dir = ''
beforeAll(async () => {
  origin = (await app.listen(0, '127.0.0.1')).url
  dir = mkdtempSync(join(tmpdir(), 'petstore-sandbox-har-'))
})
afterAll(async () => {
  await app.close()
  rmSync(dir, { recursive: true, force: true })
})
beforeEach(() => app.sandbox.reset())

const send = (path: string, key = 'sandbox-pro', init: RequestInit = {}) =>
  fetch(`${origin}/v1${path}`, {
    ...init,
    headers: { authorization: `Bearer ${key}`, ...init.headers },
  }).then(
    (r) => r.status,
    () => 'failed' as const,
  )

/** A client that does most things wrong, on the sandbox clock. */
const misbehave = async () => {
  const clock = app.sandbox.clock
  clock.set('2030-12-04T23:59:58Z')
  await send('/pets?limit=1', 'tiny-quota')
  await send('/pets?limit=1', 'tiny-quota')
  await send('/pets?limit=1', 'tiny-quota') // 429, Retry-After 2 s
  clock.advance(1_000)
  await send('/pets?limit=1', 'tiny-quota') // early
  await send('/pets/3') // deprecated, a warning
  clock.advance(1_000)
  await send('/pets/3') // removed: 410, an error
  await send('/pets?api_key=sandbox-pro')
  for (let i = 0; i < 4; i++) {
    await send('/pets?__scenario=network-error')
    clock.advance(500)
  }
  for (let i = 0; i < 7; i++) await send('/pets', 'revoked-long-ago')
}

const writeHar = async (name: string, text: string) => {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

const runReport = async (args: string[]) => {
  let out = ''
  let err = ''
  const status = await runReportCommand(args, {
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (err += t) },
  })
  return { status, out, err }
}

describe('report --from requests.har', () => {
  it('gives the live report, finding for finding', async () => {
    await misbehave()
    const live = (await (await fetch(`${origin}/__sandbox/report`)).json()) as ClientReport
    expect(live.findings.map((f) => `${f.rule} ${f.level}`)).toEqual([
      'retry-before-retry-after error',
      'deprecated-operation warning',
      'deprecated-operation error',
      'key-in-query error',
      'no-exponential-backoff error',
      'repeated-invalid-key warning',
    ])
    const har = await (await fetch(`${origin}/__sandbox/requests.har`)).text()
    const file = await writeHar('requests.har', har)

    const { status, out } = await runReport(['--from', file, '--json'])
    expect(status).toBe(1)
    expect(JSON.parse(out)).toEqual([live])

    // The built CLI, as CI runs it: the same verdict and exit status.
    const run = spawnCli(['report', '--from', file], {}, 'bundle')
    expect(await run.exited).toBe(1)
    expect(run.stdout()).toContain(`Session "default": ${live.requests} requests judged.`)
    expect(run.stdout()).toContain('6 findings (4 errors, 2 warnings): failing on error.')
    expect(run.stderr()).toBe('')
  })

  it('exits 0 on warnings only, and 1 with --fail-on warning', async () => {
    app.sandbox.clock.set('2030-01-01T00:00:00Z')
    await send('/pets/1')
    const file = await writeHar(
      'warnings.har',
      await (await fetch(`${origin}/__sandbox/requests.har`)).text(),
    )
    expect((await runReport(['--from', file])).status).toBe(0)
    const strict = await runReport(['--from', file, '--fail-on', 'warning'])
    expect(strict.status).toBe(1)
    expect(strict.out).toContain('1 finding (0 errors, 1 warning): failing on warning.')
  })

  it('exits 0 for a clean client, and 2 for what it cannot judge', async () => {
    await send('/pets?status=available')
    const clean = await writeHar(
      'clean.har',
      await (await fetch(`${origin}/__sandbox/requests.har`)).text(),
    )
    expect(await runReport(['--from', clean])).toMatchObject({
      status: 0,
      out: expect.stringContaining('No findings: the client behaved.'),
    })
    expect(await runReport([])).toMatchObject({
      status: 2,
      err: expect.stringContaining('give the HAR file with --from FILE.har'),
    })
    expect(await runReport(['--from', join(dir, 'missing.har')])).toMatchObject({
      status: 2,
      err: expect.stringContaining('no such file'),
    })
    expect(await runReport(['--from', await writeHar('bad.har', '{"log":')])).toMatchObject({
      status: 2,
      err: expect.stringContaining('Failed to read the HAR: it is not JSON'),
    })
    expect(
      await runReport([
        '--from',
        await writeHar('odd.har', '{"log":{"entries":[{"request":{}}]}}'),
      ]),
    ).toMatchObject({ status: 2, err: expect.stringContaining('log.entries.0.') })
    expect(await runReport(['--from', clean, '--fail-on', 'info'])).toMatchObject({
      status: 2,
      err: expect.stringContaining('"info" is not error or warning'),
    })
    expect(await runReport(['--from', clean, '--frm'])).toMatchObject({ status: 2 })
  })
})

describe('report --from a browser recording (no _sandbox: callers from Authorization)', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchChromium()
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
  })

  it('finds what does not depend on the sandbox clock, with the journal keyRef', async () => {
    const path = join(dir, 'browser.har')
    const context = await browser.newContext({ recordHar: { path, content: 'embed' } })
    await context.route(`${origin}/app`, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>app</title>' }),
    )
    const page = await context.newPage()
    await page.goto(`${origin}/app`)
    await page.evaluate(async (api) => {
      // Each body is read, as an app would: the recorder embeds a body the page
      // received, and may miss one still in flight when the context closes.
      const call = async (path: string, key: string) =>
        (await fetch(`${api}${path}`, { headers: { authorization: `Bearer ${key}` } })).text()
      await call('/pets/2', 'sandbox-free')
      await call('/pets?token=sandbox-free', 'sandbox-free')
      for (let i = 0; i < 7; i++) await call('/pets', 'not-a-key')
    }, `${origin}/v1`)
    await context.close()

    const { status, out } = await runReport(['--from', path, '--json'])
    expect(status).toBe(1)
    const [report] = JSON.parse(out) as ClientReport[]
    const live = await app.sandbox.report()
    expect(report?.findings.map((f) => [f.rule, f.level, f.seqs.length])).toEqual([
      ['deprecated-operation', 'warning', 1],
      ['key-in-query', 'error', 1],
      ['repeated-invalid-key', 'warning', 7],
    ])
    // The same sentences as the live report (keyRef is one function everywhere); a
    // browser's seqs are positions in its HAR, which holds the page's own requests too.
    const sentences = (r: ClientReport | undefined) =>
      r?.findings.map((f) => f.message.replaceAll(/#\d+/g, '#n'))
    expect(sentences(report)).toEqual(sentences(live))
    // Its seq is the getPet call's position in the file (the browser may have fetched a favicon first).
    const recorded = JSON.parse(readFileSync(path, 'utf8')) as {
      log: { entries: { request: { url: string } }[] }
    }
    const position = recorded.log.entries.findIndex((e) => e.request.url.endsWith('/v1/pets/2')) + 1
    expect(report?.findings[0]?.seqs).toEqual([position])
  })
})
