import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { installSandbox, type PlaywrightSandbox } from '../../src/runtimes/playwright.js'
import { launchChromium } from '../support/browser/launch-chromium.js'

// installSandbox on a whole context, from a page on another origin than the API's.
const APP = 'https://app.petstore.test'
const API = 'https://api.petstore.test/v1'
let browser: Browser
let context: BrowserContext
let page: Page
let sandbox: PlaywrightSandbox

interface PageAnswer {
  status: number
  totalCount: string | null
  remaining: string | null
  body: string
}

/** `fetch` in the page; a failed fetch comes back as its error message. */
const fetchInPage = (url: string, init: RequestInit = {}): Promise<PageAnswer | string> =>
  page.evaluate(
    async ([u, i]) => {
      try {
        const r = await fetch(u, i)
        return {
          status: r.status,
          totalCount: r.headers.get('x-total-count'),
          remaining: r.headers.get('x-ratelimit-remaining'),
          body: await r.text(),
        }
      } catch (error) {
        return String(error)
      }
    },
    [url, init] as const,
  )

const FREE = { headers: { authorization: 'Bearer sandbox-free' } }

beforeAll(async () => {
  browser = await launchChromium()
  context = await browser.newContext()
  // Routes registered first answer last: these catch what the sandbox passes on.
  await context.route(`${APP}/`, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>app</title>' }),
  )
  await context.route(
    (url) => url.origin === new URL(API).origin,
    (route) => route.fulfill({ status: 599, body: 'not the sandbox' }),
  )
  sandbox = await installSandbox(context, { baseUrl: API })
  page = await context.newPage()
  await page.goto(`${APP}/`)
}, 60_000)

afterAll(async () => {
  await browser?.close()
})

describe('installSandbox', () => {
  it('answers a page opened after the install, exposing its headers to the other origin', async () => {
    await sandbox.reset()
    const answer = await fetchInPage(`${API}/pets?limit=2`, FREE)
    // Without Access-Control-Allow-Origin the fetch fails; without Expose-Headers these read null.
    expect(answer).toMatchObject({ status: 200, remaining: '59', totalCount: '25' })
    expect(JSON.parse((answer as PageAnswer).body)).toHaveLength(2)
  })

  it('answers the CORS preflight itself, without a key, a quota or a journal entry', async () => {
    await sandbox.reset()
    const answer = await fetchInPage(`${API}/pets`, {
      method: 'POST',
      headers: { ...FREE.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
    })
    expect(answer).toMatchObject({ status: 201, remaining: '59' })
    expect(sandbox.journal.list().map((e) => `${e.method} ${e.status}`)).toEqual(['POST 201'])
  })

  it('passes requests outside the base path on to the next route', async () => {
    expect(await fetchInPage(`${new URL(API).origin}/health`)).toMatchObject({ status: 599 })
  })

  it('fails the connection for the network-error and timeout scenarios', async () => {
    await sandbox.reset()
    sandbox.scenario.set('network-error')
    expect(await fetchInPage(`${API}/pets`, FREE)).toMatch(/TypeError: Failed to fetch/)
    sandbox.scenario.set('timeout')
    expect(await fetchInPage(`${API}/pets?__delay=10`, FREE)).toMatch(/TypeError: Failed to fetch/)
    expect(sandbox.journal.list().map((e) => e.scenario)).toEqual(['network-error', 'timeout'])
  })

  it('stops answering after uninstall', async () => {
    await sandbox.uninstall()
    expect(await fetchInPage(`${API}/pets`, FREE)).toMatchObject({ status: 599 })
    sandbox = await installSandbox(context, { baseUrl: API })
    expect(await fetchInPage(`${API}/pets`, FREE)).toMatchObject({ status: 200 })
  })
})
