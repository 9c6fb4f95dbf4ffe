import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { installSandbox } from '../../src/runtimes/playwright.js'
import { killAllChildren } from '../server/spawn-cli.js'
import { launchChromium } from '../support/browser/launch-chromium.js'
import { startHostileUpstream, type UpstreamProcess } from '../support/upstream-processes.js'
import { FREE, type Front, startFront } from './upstream-front.js'

// Issue 31 item 13: in front of an upstream, the sandbox's Access-Control-Expose-Headers
// merges with the upstream's, so browser code reads the upstream's ETag and X-Request-Id.
let browser: Browser
let hostile: UpstreamProcess
const fronts: Front[] = []

beforeAll(async () => {
  ;[browser, hostile] = await Promise.all([launchChromium(), startHostileUpstream()])
}, 90_000)
afterAll(async () => {
  await browser?.close()
  await Promise.all(fronts.map((f) => f.close()))
  await hostile?.stop()
  killAllChildren()
})

/** What cross-origin browser code reads from an answer. */
const readInPage = (page: Page, url: string) =>
  page.evaluate(async (u) => {
    const r = await fetch(u, { headers: { authorization: 'Bearer sandbox-free' } })
    await r.text()
    return {
      status: r.status,
      etag: r.headers.get('etag'),
      requestId: r.headers.get('x-request-id'),
      limit: r.headers.get('x-ratelimit-limit'),
    }
  }, url)

describe("the upstream's exposed headers", () => {
  it('are exposed by the server next to its own, and a cross-origin page reads them', async () => {
    const f = await startFront({ upstream: hostile.url })
    fronts.push(f)
    const direct = await f.get('/v1/hostile/expose', { ...FREE, origin: 'http://localhost:1' })
    await direct.arrayBuffer()
    const exposed = direct.headers.get('access-control-expose-headers')?.split(', ') ?? []
    expect(exposed).toEqual(expect.arrayContaining(['ETag', 'X-Request-Id', 'X-RateLimit-Limit']))
    // One header, no name twice.
    expect(new Set(exposed.map((n) => n.toLowerCase())).size).toBe(exposed.length)

    // Chromium: the page on localhost, the sandbox on 127.0.0.1 (another origin).
    const page = await browser.newPage()
    try {
      await page.goto(f.origin.replace('127.0.0.1', 'localhost'))
      const read = await readInPage(page, `${f.origin}/v1/hostile/expose`)
      expect(read).toEqual({ status: 200, etag: '"v1"', requestId: 'req-42', limit: '60' })
    } finally {
      await page.close()
    }
  })

  it('are exposed by the Playwright runtime too', async () => {
    const context = await browser.newContext()
    try {
      const APP = 'https://app.petstore.test'
      await context.route(`${APP}/`, (route) =>
        route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>app</title>' }),
      )
      const page = await context.newPage()
      await page.goto(`${APP}/`)
      const sandbox = await installSandbox(context, {
        baseUrl: 'https://api.petstore.test/v1',
        upstream: hostile.url,
      })
      const read = await readInPage(page, 'https://api.petstore.test/v1/hostile/expose')
      expect(read).toEqual({ status: 200, etag: '"v1"', requestId: 'req-42', limit: '60' })
      await sandbox.uninstall()
    } finally {
      await context.close()
    }
  })

  it('Playwright refuses a body past the upstream limit and ends a dripping one at the timeout', async () => {
    const context = await browser.newContext()
    try {
      const APP = 'https://app.petstore.test'
      await context.route(`${APP}/`, (route) =>
        route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>app</title>' }),
      )
      const page = await context.newPage()
      await page.goto(`${APP}/`)
      const sandbox = await installSandbox(context, {
        baseUrl: 'https://api.petstore.test/v1',
        upstream: { url: hostile.url, maxBodyBytes: 65_536, timeoutMs: 500 },
      })
      const api = 'https://api.petstore.test/v1/hostile'
      expect((await readInPage(page, `${api}/sized?bytes=60000`)).status).toBe(200)
      expect((await readInPage(page, `${api}/sized?bytes=70000`)).status).toBe(502)
      expect((await readInPage(page, `${api}/drip`)).status).toBe(504)
      expect(sandbox.journal.list().map((e) => e.code ?? e.status)).toEqual([
        200,
        'upstream_unavailable',
        'upstream_timeout',
      ])
      await sandbox.uninstall()
    } finally {
      await context.close()
    }
  })
})
