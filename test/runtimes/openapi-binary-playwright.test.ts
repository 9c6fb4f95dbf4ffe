import { readFileSync } from 'node:fs'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { parse } from 'yaml'
import { installSandbox } from '../../src/runtimes/playwright.js'
import { launchChromium } from '../support/browser/launch-chromium.js'

// Binary media through Playwright's page.route (decision 0067): a page fetches the document's
// images and Chromium decodes them.
const ORIGIN = 'https://api.media.test'
const document = parse(readFileSync('test/openapi/fixtures/binary-media.yaml', 'utf8')) as Record<
  string,
  unknown
>

let browser: Browser
let page: Page
beforeAll(async () => {
  browser = await launchChromium()
  page = await browser.newPage()
  await installSandbox(page, { baseUrl: `${ORIGIN}/v1`, openapi: document })
  await page.route(`${ORIGIN}/`, (route) =>
    route.fulfill({
      status: 200,
      contentType: 'text/html',
      body: '<!doctype html><title>app</title>',
    }),
  )
  await page.goto(`${ORIGIN}/`)
}, 60_000)
afterAll(() => browser?.close())

it('answers the document’s images with bytes the page decodes, and their Content-Length', async () => {
  const read = (path: string) =>
    page.evaluate(async (path) => {
      const response = await fetch(`/v1${path}`, {
        headers: { authorization: 'Bearer sandbox-free' },
      })
      const blob = await response.blob()
      const bitmap = await createImageBitmap(blob)
      return {
        type: response.headers.get('content-type'),
        length: Number(response.headers.get('content-length')),
        size: blob.size,
        width: bitmap.width,
        height: bitmap.height,
      }
    }, path)
  const png = await read('/avatar.png')
  expect(png).toMatchObject({ type: 'image/png', width: 8, height: 8 })
  expect(png.length).toBe(png.size)
  expect(await read('/avatar.jpg')).toMatchObject({ type: 'image/jpeg', width: 1, height: 1 })
  expect(await read('/avatar.gif')).toMatchObject({ type: 'image/gif', width: 1, height: 1 })
})
