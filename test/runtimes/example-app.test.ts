import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { installSandbox, type PlaywrightSandbox } from 'petstore-sandbox/playwright'
import { createSandboxServer, type SandboxServer } from 'petstore-sandbox/server'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildExampleApp } from '../../examples/app/build.js'
import { type StaticServer, serveStatic } from '../../examples/app/serve-static.js'
import {
  listedIds,
  openApp,
  screenshot,
  shownError,
  waitForText,
} from '../support/browser/app-page.js'
import { launchChromium } from '../support/browser/launch-chromium.js'

// The example app's flows through the service worker, through the Playwright entry and
// against the standalone server, as users run it.
const API = 'https://api.petstore.test/v1'
/** Before getPet's removal, and in the middle of a UTC minute. */
const FROZEN_AT = '2029-06-01T12:00:30Z'
let root: string
let server: StaticServer
let browser: Browser
let api: SandboxServer
let apiUrl: string

beforeAll(async () => {
  root = await buildExampleApp(await mkdtemp(join(tmpdir(), 'petstore-example-app-')))
  server = await serveStatic({ root })
  api = createSandboxServer()
  apiUrl = `${(await api.listen(0, '127.0.0.1')).url}/v1`
  browser = await launchChromium()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await api?.close()
  if (root !== undefined) await rm(root, { recursive: true, force: true })
})

interface AppMode {
  name: 'worker' | 'playwright' | 'server'
  /** A fresh sandbox, then the app's page with these extra query parameters. */
  open(query?: string): Promise<void>
  page(): Page
}

const workerMode = (): AppMode => {
  let page: Page
  return {
    name: 'worker',
    page: () => page,
    async open(query = '') {
      page ??= await browser.newPage()
      if (page.url().startsWith(server.origin)) {
        // Wipes the data the app keeps across reloads (persist: true).
        await page.evaluate(() => window.petstoreSandbox?.reset())
      }
      await openApp(page, `${server.origin}/?mock=worker${query}`)
    },
  }
}

const playwrightMode = (): AppMode & { sandbox(): PlaywrightSandbox } => {
  let page: Page
  let sandbox: PlaywrightSandbox
  return {
    name: 'playwright',
    page: () => page,
    sandbox: () => sandbox,
    async open(query = '') {
      if (page === undefined) {
        page = await browser.newPage()
        sandbox = await installSandbox(page, { baseUrl: API })
      }
      await sandbox.reset()
      // Mid-minute and frozen: a slow run never crosses a rate-limit window between two requests.
      sandbox.clock.set(FROZEN_AT)
      await openApp(page, `${server.origin}/?api=${encodeURIComponent(API)}${query}`)
    },
  }
}

// The standalone server over real HTTP, with CORS: the app as users run it with `npm start`.
const serverMode = (): AppMode => {
  let page: Page
  return {
    name: 'server',
    page: () => page,
    async open(query = '') {
      page ??= await browser.newPage()
      await api.sandbox.reset()
      api.sandbox.clock.set(FROZEN_AT)
      await openApp(page, `${server.origin}/?api=${encodeURIComponent(apiUrl)}${query}`)
    },
  }
}

describe.each([workerMode(), playwrightMode(), serverMode()])('the example app ($name)', (mode) => {
  const page = () => mode.page()

  it('lists the first ten seeded pets with the rate-limit headers', async () => {
    await mode.open()
    expect(await waitForText(page(), '#page-info', 'of 25')).toBe('Pets #1–#10 of 25')
    expect(await listedIds(page())).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(await page().textContent('#rate-limit')).toBe('Rate limit: 59 of 60 requests left')
    expect(await shownError(page())).toBe('')
    await screenshot(page(), `${mode.name}-default-list`)
  })

  it('pages with Next along the Link cursor until the last page', async () => {
    await mode.open()
    await waitForText(page(), '#page-info', '#1–#10')
    await page().click('#next-page')
    expect(await waitForText(page(), '#page-info', '#11')).toBe('Pets #11–#20 of 25')
    await page().click('#next-page')
    expect(await waitForText(page(), '#page-info', '#21')).toBe('Pets #21–#25 of 25')
    expect(await page().isDisabled('#next-page')).toBe(true)
    expect(await page().textContent('#rate-remaining')).toBe('57')
  })

  it('filters the list by status', async () => {
    await mode.open()
    await page().selectOption('#status-filter', 'sold')
    await waitForText(page(), '#page-info', 'of 8')
    const statuses = await page().$$eval('#pets tr td:nth-child(3)', (cells) =>
      cells.map((c) => c.textContent),
    )
    expect(new Set(statuses)).toEqual(new Set(['sold']))
  })

  it('creates a pet from the form and shows its name as text', async () => {
    await mode.open()
    const name = '<img src=x onerror="document.title=1">Rex'
    await page().fill('input[name="name"]', name)
    await page().fill('input[name="categoryId"]', '3')
    await page().selectOption('select[name="status"]', 'pending')
    await page().click('#create-form button[type="submit"]')
    expect(await waitForText(page(), '#create-result', 'Added')).toBe(
      `Added #26 ${name} (pending).`,
    )
    await page().click('#next-page')
    await page().click('#next-page')
    expect(await waitForText(page(), '#page-info', '#21')).toBe('Pets #21–#26 of 26')
    expect(await page().$$('#pets img')).toHaveLength(0)
  })

  it('fetches one pet by id and shows 404 pet_not_found for an unknown one', async () => {
    await mode.open()
    await page().fill('input[name="id"]', '7')
    await page().click('#get-form button[type="submit"]')
    expect(await waitForText(page(), '#pet-details', '#7')).toMatch(
      /^#7 .+, (available|pending|sold), category \d \(this operation ends on Thu, 05 Dec 2030 00:00:00 GMT\)$/,
    )
    await page().fill('input[name="id"]', '999')
    await page().click('#get-form button[type="submit"]')
    await waitForText(page(), '#error', 'pet_not_found')
    expect(await shownError(page())).toBe('404 pet_not_found')
    expect(await page().textContent('#pet-details')).toBe('No pet shown.')
    await screenshot(page(), `${mode.name}-not-found`)
  })

  it('shows each scenario picked in the UI: unavailable, rate-limited, empty, network-error', async () => {
    await mode.open()
    await waitForText(page(), '#page-info', 'of 25')
    await page().selectOption('#scenario', 'unavailable')
    await waitForText(page(), '#error', 'service_unavailable')
    expect(await shownError(page())).toBe('503 service_unavailable')
    expect(await listedIds(page())).toEqual([])
    await screenshot(page(), `${mode.name}-unavailable`)

    await page().selectOption('#scenario', 'rate-limited')
    await waitForText(page(), '#error', 'rate_limit_exceeded')
    expect(await shownError(page())).toBe('429 rate_limit_exceeded')
    await screenshot(page(), `${mode.name}-rate-limited`)

    await page().selectOption('#scenario', 'empty')
    expect(await waitForText(page(), '#pets', 'No pets.')).toBe('No pets.')
    expect(await shownError(page())).toBe('')

    await page().selectOption('#scenario', 'network-error')
    await waitForText(page(), '#error', 'network_error')
    expect(await shownError(page())).toBe('Network network_error')
  })
})

describe('the example app with the worker keeps state in the page', () => {
  const mode = workerMode()
  const page = () => mode.page()

  it('takes a sticky scenario from its own URL (?__scenario=empty)', async () => {
    await mode.open('&__scenario=empty')
    expect(await waitForText(page(), '#pets', 'No pets.')).toBe('No pets.')
    expect(await page().textContent('#mode')).toContain('sticky scenario empty')
  })

  it('answers a cross-origin API URL through the worker, headers and Link included', async () => {
    await mode.open(`&api=${encodeURIComponent(API)}`)
    expect(await waitForText(page(), '#page-info', 'of 25')).toBe('Pets #1–#10 of 25')
    expect(await page().textContent('#mode')).toContain(API)
    await page().click('#next-page')
    expect(await waitForText(page(), '#page-info', '#11')).toBe('Pets #11–#20 of 25')
    expect(await page().textContent('#rate-remaining')).toBe('58')
  })

  it('keeps created pets across a reload until the sandbox is reset', async () => {
    await mode.open()
    await page().fill('input[name="name"]', 'Kept')
    await page().click('#create-form button[type="submit"]')
    await waitForText(page(), '#create-result', 'Added #26')
    await openApp(page(), `${server.origin}/?mock=worker`)
    expect(await waitForText(page(), '#page-info', 'of 26')).toBe('Pets #1–#10 of 26')
    await page().fill('input[name="id"]', '26')
    await page().click('#get-form button[type="submit"]')
    expect(await waitForText(page(), '#pet-details', '#26')).toContain('#26 Kept, available')
    await page().click('#reset')
    await page().click('#get-form button[type="submit"]')
    await waitForText(page(), '#error', 'pet_not_found')
    expect(await shownError(page())).toBe('404 pet_not_found')
  })
})
