import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { installSandbox } from '../../src/runtimes/playwright.js'
import { killAllChildren } from '../server/spawn-cli.js'
import { launchChromium } from '../support/browser/launch-chromium.js'
import { startHostileUpstream, type UpstreamProcess } from '../support/upstream-processes.js'

// Issue 31 item 1 in Playwright (decision 0054): upstream mode forwards with the core's fetch
// forwarder in this process, the body read as a stream and capped as it inflates. Playwright's
// route.fetch read and inflated the whole body in its driver first (a 1 MiB gzip bomb: 1 GiB).
const APP = 'https://app.petstore.test'
const API = 'https://api.petstore.test/v1'
let browser: Browser
let hostile: UpstreamProcess

beforeAll(async () => {
  ;[browser, hostile] = await Promise.all([launchChromium(), startHostileUpstream()])
}, 90_000)
afterAll(async () => {
  await browser?.close()
  await hostile?.stop()
  killAllChildren()
})

const appPage = async (context: BrowserContext): Promise<Page> => {
  await context.route(`${APP}/`, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>app</title>' }),
  )
  const page = await context.newPage()
  await page.goto(`${APP}/`)
  return page
}

interface Refusal {
  status: number
  code: string
  message: string
  details?: { field: string; message: string }[]
}

const errorInPage = (page: Page, url: string): Promise<Refusal> =>
  page.evaluate(async (u) => {
    const r = await fetch(u, { headers: { authorization: 'Bearer sandbox-free' } })
    const body = (await r.json()) as Omit<Refusal, 'status'>
    return { status: r.status, ...body }
  }, url)

describe('Playwright in front of a hostile upstream', () => {
  it.each([['gzip-bomb'], ['deflate-bomb'], ['br-bomb']])(
    'answers a %s with the JSON Error naming the body limit once decoded, memory bounded',
    async (name) => {
      const context = await browser.newContext()
      try {
        const page = await appPage(context)
        const sandbox = await installSandbox(context, {
          baseUrl: API,
          upstream: { url: hostile.url },
        })
        const before = process.memoryUsage().rss
        const refused = await errorInPage(page, `${API}/hostile/${name}`)
        const grown = process.memoryUsage().rss - before
        expect(refused).toMatchObject({ status: 502, code: 'upstream_unavailable' })
        expect(refused.message).toContain('larger than 10485760 bytes once decompressed')
        expect(refused.message).toContain('--upstream-max-body')
        expect(refused.details).toEqual([
          { field: 'upstream.maxBodyBytes', message: 'at most 10485760 bytes' },
        ])
        // route.fetch inflated the whole gigabyte in this process before the check.
        expect(grown).toBeLessThan(200 * 1024 * 1024)
        expect(sandbox.journal.list()[0]).toMatchObject({ status: 502 })
        await sandbox.uninstall()
      } finally {
        await context.close()
      }
    },
  )

  it('stops an endless body at a settable limit and a dripping one at the timeout', async () => {
    const context = await browser.newContext()
    try {
      const page = await appPage(context)
      const sandbox = await installSandbox(context, {
        baseUrl: API,
        upstream: { url: hostile.url, maxBodyBytes: 65_536, timeoutMs: 400 },
      })
      const endless = await errorInPage(page, `${API}/hostile/endless`)
      expect(endless).toMatchObject({ status: 502, code: 'upstream_unavailable' })
      expect(endless.message).toContain('larger than 65536 bytes, the limit')
      const drip = await errorInPage(page, `${API}/hostile/drip`)
      expect(drip).toMatchObject({ status: 504, code: 'upstream_timeout' })
      await sandbox.uninstall()
    } finally {
      await context.close()
    }
  })
})
