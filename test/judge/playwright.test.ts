import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { installSandbox, type PlaywrightSandbox } from '../../src/runtimes/playwright.js'
import { createSandboxServer } from '../../src/server/index.js'
import { launchChromium } from '../support/browser/launch-chromium.js'

// Issue 23 from Playwright (Debian's Chromium): a page's app talks to a real
// server, and the test asserts through the control API as a Playwright test
// against a deployed sandbox would; then installSandbox's own assertions, and
// `aborted` when the page gives up on a held answer.
let browser: Browser
beforeAll(async () => {
  browser = await launchChromium()
}, 60_000)
afterAll(async () => {
  await browser?.close()
})

/**
 * `fetch` in the page; a failed one comes back as its error's name. With
 * `abortable`, the page's `giveUp()` aborts it (the test calls it, where an
 * app's own timeout would fire).
 */
const fetchInPage = (page: Page, url: string, init: RequestInit & { abortable?: boolean } = {}) =>
  page.evaluate(
    async ([u, { abortable, ...rest }]) => {
      const controller = new AbortController()
      Object.assign(window, { giveUp: () => controller.abort() })
      const signal = abortable === true ? controller.signal : null
      try {
        return (await fetch(u, { ...rest, signal })).status
      } catch (error) {
        return (error as Error).name
      }
    },
    [url, init] as const,
  )

describe('the control API, asserted from Playwright against a server', () => {
  const app = createSandboxServer()
  let context: BrowserContext
  let page: Page
  let api = ''
  beforeAll(async () => {
    const { url } = await app.listen(0, '127.0.0.1')
    api = `${url}/v1`
    context = await browser.newContext({ baseURL: url })
    // The app: a page served beside the API (routed here), calling it as a client does.
    await context.route(`${url}/app`, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>app</title>' }),
    )
    page = await context.newPage()
    await page.goto('/app')
  })
  afterAll(async () => {
    await context?.close()
    await app.close()
  })

  it('expects the requests the page sent (200), and shows the nearest miss when it did not (409)', async () => {
    await app.sandbox.clock.set('2030-06-01T00:00:00Z')
    const headers = { authorization: 'Bearer sandbox-free', 'content-type': 'application/json' }
    expect(await fetchInPage(page, `${api}/pets?limit=3`, { headers })).toBe(200)
    expect(
      await fetchInPage(page, `${api}/pets`, {
        method: 'POST',
        headers,
        body: '{"name":"Rex","categoryId":1}',
      }),
    ).toBe(201)
    expect(await fetchInPage(page, `${api}/pets/2`, { headers })).toBe(200)

    const met = await context.request.post('/__sandbox/requests/expect', {
      data: { method: 'POST', path: '/v1/pets', body: { name: 'Rex' }, times: 1 },
    })
    expect(met.status()).toBe(200)
    expect(await met.json()).toMatchObject({ matched: 1 })

    const missed = await context.request.post('/__sandbox/requests/expect', {
      data: { method: 'GET', path: '/v1/pets', query: { limit: '5' } },
    })
    expect(missed.status()).toBe(409)
    const error = (await missed.json()) as { code: string; message: string }
    expect(error.code).toBe('expectation_not_met')
    expect(error.message).toMatch(
      /Nearest misses \(- expected, \+ received\):\n\n {2}#\d+ GET \/v1\/pets\?limit=3 → 200\n {4}query\.limit\n {6}- "5"\n {6}\+ "3"/,
    )

    const filtered = await context.request.get('/__sandbox/requests?operation=getPet&status=200')
    expect(
      ((await filtered.json()) as { url: string }[]).map((e) => new URL(e.url).pathname),
    ).toEqual(['/v1/pets/2'])
    const report = await (await context.request.get('/__sandbox/report')).json()
    expect(report.findings.map((f: { rule: string; level: string }) => [f.rule, f.level])).toEqual([
      ['deprecated-operation', 'warning'],
    ])
    const coverage = await (await context.request.get('/__sandbox/coverage')).json()
    expect(coverage.operations.map((o: { requests: number }) => o.requests)).toEqual([1, 1, 1])
  })
})

describe('installSandbox (the page routed to the sandbox in the test process)', () => {
  const API = 'https://api.petstore.test/v1'
  let context: BrowserContext
  let page: Page
  let sandbox: PlaywrightSandbox
  beforeAll(async () => {
    context = await browser.newContext()
    sandbox = await installSandbox(context, { baseUrl: API })
    await context.route('https://app.petstore.test/', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>app</title>' }),
    )
    page = await context.newPage()
    await page.goto('https://app.petstore.test/')
  })
  afterAll(async () => {
    await context?.close()
  })

  it('marks a slow create the page gave up on aborted, and judges the blind retry', async () => {
    sandbox.clock.set('2030-01-01T12:00:00Z')
    const headers = { authorization: 'Bearer sandbox-pro', 'content-type': 'application/json' }
    const body = '{"name":"Rex","categoryId":2}'
    // The page gives up once the sandbox has the request (a 30 s answer): the route
    // notices and stops holding it.
    const stop = sandbox.events.on('request', () => {
      void page.evaluate(() => (window as unknown as { giveUp(): void }).giveUp())
    })
    expect(
      await fetchInPage(page, `${API}/pets?__scenario=slow&__delay=30000`, {
        method: 'POST',
        headers,
        body,
        abortable: true,
      }),
    ).toBe('AbortError')
    stop()
    await vi.waitFor(() => expect(sandbox.journal.list()[0]?.aborted).toBe(true))
    expect(await fetchInPage(page, `${API}/pets`, { method: 'POST', headers, body })).toBe(201)

    await expect(
      sandbox.requests.expect({ method: 'POST', body: { name: 'Rex' } }, { times: 2 }),
    ).resolves.toMatchObject([
      { status: 201, aborted: true },
      { status: 201, aborted: false },
    ])
    const report = await sandbox.report()
    expect(report.findings.map((f) => f.rule)).toEqual(['duplicate-create-after-failure'])
    // The same journal as a pact (issue 30): the answer the page gave up on is no interaction.
    const { pact, skipped } = await sandbox.pact({ consumer: 'page', provider: 'pet-store' })
    expect(pact.interactions.map((i) => i.description)).toEqual(['createPet: 201'])
    expect(skipped).toEqual([
      { seq: sandbox.journal.list()[0]?.seq, reason: 'the client went away before the answer' },
    ])
  })
})
