import { rm } from 'node:fs/promises'
import { HttpResponse, http } from 'msw'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type StaticServer, serveStatic } from '../../examples/app/serve-static.js'
import { installSandbox } from '../../src/runtimes/playwright.js'
import { buildSandboxPage } from '../support/browser/build-sandbox-page.js'
import { launchChromium } from '../support/browser/launch-chromium.js'

// Issue 15, point 1: the app's own handler for a path the contract does not
// define answers in the browser runtimes; other unknown paths still get the
// sandbox's 404 route_not_found.
let browser: Browser

interface PageAnswer {
  status: number
  body: string
}

const fetchInPage = (page: Page, url: string, key = 'sandbox-free'): Promise<PageAnswer | string> =>
  page.evaluate(
    async ([u, k]) => {
      try {
        const r = await fetch(u, k === '' ? {} : { headers: { authorization: `Bearer ${k}` } })
        return { status: r.status, body: await r.text() }
      } catch (error) {
        return `failed: ${String(error)}`
      }
    },
    [url, key] as const,
  )

const codeOf = (answer: PageAnswer | string): unknown =>
  typeof answer === 'string' ? answer : (JSON.parse(answer.body) as { code?: unknown }).code

beforeAll(async () => {
  browser = await launchChromium()
}, 60_000)

afterAll(async () => {
  await browser?.close()
})

describe('your own handlers in the service worker (startSandbox({ handlers }))', () => {
  let root: string
  let server: StaticServer
  let page: Page

  beforeAll(async () => {
    root = await buildSandboxPage()
    server = await serveStatic({ root })
    page = await browser.newPage()
    await page.goto(`${server.origin}/`)
    await page.waitForSelector('body[data-ready="true"]', { state: 'attached' })
  }, 60_000)

  afterAll(async () => {
    await page?.close()
    await server?.close()
    if (root !== undefined) await rm(root, { recursive: true, force: true })
  })

  it('answers a path under /v1 the contract does not define with your handler', async () => {
    const answer = await fetchInPage(page, `${server.origin}/v1/categories`)
    expect(answer).toEqual({ status: 200, body: '[{"id":1,"name":"Cats"}]' })
  })

  it('answers a path outside the base path with your handlers, MSW or plain function', async () => {
    expect(await fetchInPage(page, `${server.origin}/health`, '')).toEqual({
      status: 200,
      body: '{"ok":true}',
    })
    expect(await fetchInPage(page, `${server.origin}/version`, '')).toEqual({
      status: 200,
      body: '{"version":"1.2.3"}',
    })
  })

  it('still answers 404 route_not_found for an unknown path nobody handles, and 401 before it', async () => {
    const unknown = await fetchInPage(page, `${server.origin}/v1/owners`)
    expect(typeof unknown === 'string' ? unknown : unknown.status).toBe(404)
    expect(codeOf(unknown)).toBe('route_not_found')
    expect(codeOf(await fetchInPage(page, `${server.origin}/v1/owners`, ''))).toBe(
      'missing_api_key',
    )
  })
})

describe('your own handlers with installSandbox (Playwright)', () => {
  const API = 'https://api.petstore.test/v1'
  const APP = 'https://app.petstore.test'
  let page: Page

  beforeAll(async () => {
    page = await browser.newPage()
    // Registered first, so it runs last: what the sandbox and your handlers pass on lands here.
    await page.route(`${APP}/elsewhere`, (route) => route.fulfill({ status: 299, body: 'other' }))
    await installSandbox(page, {
      baseUrl: API,
      handlers: [
        // Issue 21: the app's page itself, outside the API, from a handler.
        http.get(`${APP}/`, () => HttpResponse.html('<!doctype html><title>app</title>')),
        http.get(`${APP}/health`, () => HttpResponse.json({ ok: true })),
        (request) =>
          request.url === `${APP}/version` ? Response.json({ version: '1.2.3' }) : undefined,
        http.get(`${API}/categories`, () => HttpResponse.json([{ id: 2, name: 'Dogs' }])),
        http.get(`${API}/broken`, () => HttpResponse.error()),
      ],
    })
    // Playwright runs the newest route first: a route added after installSandbox wins for any path.
    await page.route(`${API}/owners`, (route) => route.fulfill({ status: 200, body: 'owners' }))
    await page.goto('https://app.petstore.test/')
  }, 60_000)

  afterAll(async () => {
    await page?.close()
  })

  it('answers any URL the page requests outside the API with your handlers: the page, /health, a function', async () => {
    expect(await page.title()).toBe('app')
    expect(await fetchInPage(page, `${APP}/health`, '')).toMatchObject({
      status: 200,
      body: '{"ok":true}',
    })
    expect(await fetchInPage(page, `${APP}/version`, '')).toMatchObject({
      status: 200,
      body: '{"version":"1.2.3"}',
    })
  })

  it('passes a URL none of your handlers answers on to the routes before it', async () => {
    expect(await fetchInPage(page, `${APP}/elsewhere`, '')).toMatchObject({
      status: 299,
      body: 'other',
    })
  })

  it('answers a path the contract does not define with the handlers option', async () => {
    expect(await fetchInPage(page, `${API}/categories`)).toMatchObject({
      status: 200,
      body: '[{"id":2,"name":"Dogs"}]',
    })
  })

  it('fails the connection when your handler returns HttpResponse.error()', async () => {
    expect(await fetchInPage(page, `${API}/broken`)).toMatch(/^failed: TypeError/)
  })

  it('lets a page.route added after installSandbox answer first', async () => {
    expect(await fetchInPage(page, `${API}/owners`)).toMatchObject({ status: 200, body: 'owners' })
  })

  it('answers the contract and a 404 route_not_found for what nobody handles', async () => {
    const pets = await fetchInPage(page, `${API}/pets?limit=1`)
    expect(typeof pets === 'string' ? pets : pets.status).toBe(200)
    expect(codeOf(await fetchInPage(page, `${API}/vets`))).toBe('route_not_found')
  })
})
