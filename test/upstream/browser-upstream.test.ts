import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serveStatic } from '../../examples/app/serve-static.js'
import { installSandbox } from '../../src/runtimes/playwright.js'
import { killAllChildren } from '../server/spawn-cli.js'
import { buildSandboxPage } from '../support/browser/build-sandbox-page.js'
import { bundleDashboard, seriousViolations, shoot } from '../support/browser/dashboard-page.js'
import { launchChromium } from '../support/browser/launch-chromium.js'
import {
  sandboxJournal,
  startBrokenUpstream,
  startSandboxUpstream,
  type UpstreamEntry,
  type UpstreamProcess,
} from '../support/upstream-processes.js'
import { type Front, startFront } from './upstream-front.js'

// Upstream mode in a real browser: Playwright forwards the page's requests (with the core's
// bounded fetch forwarder, decision 0054); a HAR that Chromium itself recorded replays; the dashboard shows the source,
// the violations and the mode. Screenshots go to test-results/dashboard/.
const APP = 'https://app.petstore.test'
const API = 'https://api.petstore.test/v1'
const WAIT = { timeout: 10_000 }
let browser: Browser
let upstream: UpstreamProcess
let broken: UpstreamProcess
let dir: string
const fronts: Front[] = []

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'petstore-browser-upstream-'))
  ;[browser, upstream, broken] = await Promise.all([
    launchChromium(),
    startSandboxUpstream(['--seed', '7']),
    startBrokenUpstream(),
    bundleDashboard(),
  ])
}, 90_000)

afterAll(async () => {
  await browser?.close()
  await Promise.all(fronts.map((f) => f.close()))
  await Promise.all([upstream?.stop(), broken?.stop()])
  killAllChildren()
  rmSync(dir, { recursive: true, force: true })
})

/** A page on the app's origin, served by a route. */
const appPage = async (context: BrowserContext): Promise<Page> => {
  await context.route(`${APP}/`, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>app</title>' }),
  )
  const page = await context.newPage()
  await page.goto(`${APP}/`)
  return page
}

const fetchInPage = (page: Page, url: string) =>
  page.evaluate(async (u) => {
    const r = await fetch(u, { headers: { authorization: 'Bearer sandbox-free' } })
    return { status: r.status, limit: r.headers.get('x-ratelimit-limit'), body: await r.text() }
  }, url)

describe('upstream mode in Chromium', () => {
  it('forwards the page’s requests and checks each answer', async () => {
    const context = await browser.newContext()
    try {
      const page = await appPage(context)
      const sandbox = await installSandbox(context, { baseUrl: API, upstream: upstream.url })
      const answer = await fetchInPage(page, `${API}/pets?limit=2&__session=pw`)
      const [sent] = (await sandboxJournal(upstream)).slice(-1) as [UpstreamEntry]
      expect(sent.url).toBe(`${upstream.url}/pets?limit=2`)
      expect(answer).toEqual({ status: 200, limit: '60', body: sent.response.body })
      expect(sandbox.session('pw').journal.list()[0]).toMatchObject({ source: 'upstream' })
      await sandbox.uninstall()

      const strict = await installSandbox(context, {
        baseUrl: API,
        upstream: { url: broken.url, strict: true },
      })
      const replaced = await fetchInPage(page, `${API}/pets/2`)
      expect(replaced.status).toBe(502)
      expect(JSON.parse(replaced.body).code).toBe('upstream_contract_violation')
      expect(strict.journal.list()[0]?.violations.map((v) => v.rule)).toContain('spec.errors.body')
      await strict.uninstall()
    } finally {
      await context.close()
    }
  })

  it('forwards from the service worker (startSandbox) with fetch through msw’s bypass', async () => {
    const root = await buildSandboxPage()
    const server = await serveStatic({ root })
    const page = await browser.newPage()
    try {
      await page.goto(`${server.origin}/?upstream=${encodeURIComponent(upstream.url)}`)
      await page.waitForSelector('body[data-ready="true"]', { state: 'attached' })
      const answer = await fetchInPage(page, `${server.origin}/v1/pets/3?__session=sw`)
      const [sent] = (await sandboxJournal(upstream)).slice(-1) as [UpstreamEntry]
      expect(sent.url).toBe(`${upstream.url}/pets/3`)
      expect(answer).toEqual({ status: 200, limit: '60', body: sent.response.body })
      const entry = await page.evaluate(() => {
        const [first] = window.petstoreSandbox?.session('sw').journal.list() ?? []
        return first === undefined
          ? undefined
          : { source: first.source, violations: first.violations }
      })
      expect(entry).toEqual({ source: 'upstream', violations: [] })
      // A scenario other than default stays in the page.
      const before = (await sandboxJournal(upstream)).length
      expect((await fetchInPage(page, `${server.origin}/v1/pets?__scenario=empty`)).body).toBe('[]')
      expect((await sandboxJournal(upstream)).length).toBe(before)
    } finally {
      await page.close()
      await server.close()
      await rm(root, { recursive: true, force: true })
    }
  })

  it('replays a HAR that Chromium recorded against the upstream', async () => {
    const file = join(dir, 'chromium.har')
    const context = await browser.newContext({ recordHar: { path: file, content: 'embed' } })
    const page = await context.newPage()
    // A page of the upstream's own origin calls it, as an app on staging would.
    await page.goto(`${upstream.origin}/`)
    const live = [
      await fetchInPage(page, `${upstream.url}/pets?limit=3`),
      await fetchInPage(page, `${upstream.url}/pets/4`),
    ]
    await context.close()
    const har = JSON.parse(readFileSync(file, 'utf8'))
    expect(har.log.creator.name).toMatch(/Playwright/)

    const replay = await startFront({ upstream: { replay: file } })
    fronts.push(replay)
    for (const [i, path] of ['/v1/pets?limit=3', '/v1/pets/4'].entries()) {
      const response = await replay.get(path)
      expect([response.status, await response.text()]).toEqual([live[i]?.status, live[i]?.body])
    }
    // The page itself, in the archive too, is not an API answer.
    expect((await replay.journal()).map((e) => e.source)).toEqual(['replay', 'replay'])
  })

  it('shows where answers came from, their violations and the mode on the dashboard', async () => {
    const f = await startFront({ upstream: broken.url })
    fronts.push(f)
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    const problems: string[] = []
    page.on('pageerror', (error) => problems.push(error.message))
    await page.goto(`${f.origin}/__sandbox/`)
    await page.locator('.stream.live').waitFor(WAIT)
    await f.get('/v1/pets/9')
    const row = page.locator('.entry', { hasText: '/v1/pets/9' }).first()
    await row.waitFor(WAIT)
    await expect.poll(() => row.textContent()).toContain('upstream')
    expect(await row.textContent()).toMatch(/\d+ contract violations?/)
    await row.click()
    const detail = page.locator('.violation-list')
    await detail.waitFor(WAIT)
    expect(await detail.textContent()).toContain('spec.errors.body')
    await shoot(page, 'upstream-violations')
    await page.keyboard.press('Escape')

    const panel = page.locator('section', { has: page.locator('#mode-title') })
    await panel.waitFor(WAIT)
    await panel.getByLabel('sandbox').check()
    await expect.poll(() => f.app.sandbox.mode.get()).toBe('sandbox')
    expect((await f.get('/v1/pets/9')).status).toBe(200)
    await shoot(page, 'upstream-mode-panel', { selector: 'section:has(#mode-title)' })
    expect(await seriousViolations(page)).toEqual([])
    expect(problems).toEqual([])
    await page.close()
  })
})
