import { rm } from 'node:fs/promises'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type StaticServer, serveStatic } from '../../examples/app/serve-static.js'
import { PROXY_ERROR_PAGE } from '../../src/faults/proxy-error.js'
import { installSandbox } from '../../src/runtimes/playwright.js'
import { createPlaywrightTarget } from '../conformance/targets/playwright-target.js'
import { buildSandboxPage } from '../support/browser/build-sandbox-page.js'
import { launchChromium } from '../support/browser/launch-chromium.js'
import type { FetchProbe } from './probe-fetch.js'
import { probeFetch } from './probe-fetch.js'

// The eight faults of contract §19 in real Chromium, as a page's fetch sees them:
// through MSW's service worker (setupWorker), and through Playwright's page.route.
let root: string
let server: StaticServer
let browser: Browser
let workerPage: Page
let routedPage: Page
let workerApi: string
let routedApi: string

beforeAll(async () => {
  root = await buildSandboxPage()
  server = await serveStatic({ root })
  browser = await launchChromium()
  workerPage = await browser.newPage()
  await workerPage.goto(`${server.origin}/`)
  await workerPage.waitForSelector('body[data-ready="true"]', { state: 'attached' })
  workerApi = `${server.origin}/v1`
  routedPage = await browser.newPage()
  routedApi = (await createPlaywrightTarget(routedPage)).baseUrl
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
  if (root !== undefined) await rm(root, { recursive: true, force: true })
})

const probe = (page: Page, url: string, init: Parameters<typeof probeFetch>[1] = {}) =>
  page.evaluate(
    `(${probeFetch.toString()})(${JSON.stringify(url)}, ${JSON.stringify(init)})`,
  ) as Promise<FetchProbe>
const headers = { authorization: 'Bearer sandbox-enterprise' }
const parses = (text: string | undefined) => {
  try {
    JSON.parse(text ?? '')
    return true
  } catch {
    return false
  }
}

const runtimes = [
  { name: 'the browser (setupWorker)', page: () => workerPage, api: () => workerApi },
  { name: 'Playwright (page.route)', page: () => routedPage, api: () => routedApi },
] as const

describe.each(runtimes)('faults inside an answer in $name', (runtime) => {
  const get = (query: string) =>
    probe(runtime.page(), `${runtime.api()}/pets?${query}`, { headers })
  const routed = runtime.name.startsWith('Playwright')

  it.each(['reset-mid-body', 'truncated-body'])(
    '%s: the head arrives with the whole Content-Length; the body breaks',
    async (scenario) => {
      const whole = await get('')
      const seen = await get(`__scenario=${scenario}`)
      expect(seen.status).toBe(200)
      if (routed) {
        // route.fulfill cannot stream: half the body arrives, and reading it does not throw.
        expect(seen.text).toBe(whole.text?.slice(0, seen.text?.length))
        expect(seen.text?.length).toBeLessThan(whole.text?.length ?? 0)
        expect(parses(seen.text)).toBe(false)
      } else {
        expect(seen.bodyError).toBe('TypeError')
      }
    },
  )

  it('stall-after-headers: reading the body fails after the stall (Playwright: the fetch rejects)', async () => {
    const seen = await get('__scenario=stall-after-headers&__delay=0')
    if (routed) expect(seen).toMatchObject({ rejected: 'TypeError' })
    else expect(seen).toMatchObject({ status: 200, bodyError: 'TypeError' })
  })

  it('slow-body: the whole answer arrives', async () => {
    const whole = await get('')
    const seen = await get('__scenario=slow-body&__bandwidth=10000000')
    expect(seen).toMatchObject({ status: 200, text: whole.text })
  })

  it('malformed-json: application/json that does not parse', async () => {
    const seen = await get('__scenario=malformed-json')
    expect(seen).toMatchObject({ status: 200, contentType: 'application/json' })
    expect(parses(seen.text)).toBe(false)
  })

  it('proxy-error: 502 text/html, no rate-limit headers', async () => {
    expect(await get('__scenario=proxy-error')).toMatchObject({
      status: 502,
      contentType: 'text/html; charset=utf-8',
      rateLimited: false,
      text: PROXY_ERROR_PAGE,
    })
  })

  it('proxy-error to another origin: fetch rejects, as without CORS headers; __cors=keep reads the 502', async () => {
    // A stock gateway's 502 has no CORS headers (issue 37 item 9). setupWorker answers a
    // cross-origin request itself (the browser checks no CORS there); Playwright adds CORS
    // headers to a fulfilled answer: the sandbox fails the request in both.
    const other = 'https://gateway.example.test/v1'
    const page = runtime.page()
    if (routed) await installSandbox(page, { baseUrl: other })
    expect(await probe(page, `${other}/pets?__scenario=proxy-error`, { headers })).toMatchObject({
      rejected: 'TypeError',
    })
    expect(
      await probe(page, `${other}/pets?__scenario=proxy-error&__cors=keep`, { headers }),
    ).toMatchObject({ status: 502, text: PROXY_ERROR_PAGE })
  })

  it('empty-response: fetch rejects with a TypeError', async () => {
    expect(await get('__scenario=empty-response')).toMatchObject({ rejected: 'TypeError' })
  })

  it('commit-then-drop: fetch rejects, and the pet exists', async () => {
    const name = `Dropped in ${runtime.name}`
    const seen = await probe(runtime.page(), `${runtime.api()}/pets?__scenario=commit-then-drop`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name, categoryId: 1 }),
    })
    expect(seen).toMatchObject({ rejected: 'TypeError' })
    const list = await get('limit=100')
    expect(list.text).toContain(name)
  })
})
