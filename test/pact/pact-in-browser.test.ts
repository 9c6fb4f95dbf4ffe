import { rm } from 'node:fs/promises'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type StaticServer, serveStatic } from '../../examples/app/serve-static.js'
import { buildSandboxPage } from '../support/browser/build-sandbox-page.js'
import { launchChromium } from '../support/browser/launch-chromium.js'

// Issue 30: sandbox.pact() in the browser runtime (MSW's service worker in Chromium): its
// chunk, with the OpenAPI document, loads on first use in the page.
let root: string
let server: StaticServer
let browser: Browser
let page: Page

beforeAll(async () => {
  root = await buildSandboxPage()
  server = await serveStatic({ root })
  browser = await launchChromium()
  page = await browser.newPage()
  await page.goto(`${server.origin}/`)
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached' })
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
  if (root !== undefined) await rm(root, { recursive: true, force: true })
})

it('exports the page’s requests as a pact, the scenario as the provider state', async () => {
  const exported = (await page.evaluate(`(async () => {
    const headers = { authorization: 'Bearer sandbox-free' }
    await fetch('/v1/pets?limit=2', { headers })
    await fetch('/v1/pets/1?__scenario=sunset', { headers })
    return window.petstoreSandbox.pact({ consumer: 'browser-app', provider: 'pet-store' })
  })()`)) as {
    pact: { interactions: { description: string; providerStates: { name: string }[] }[] }
    problems: unknown[]
  }
  expect(exported.problems).toEqual([])
  expect(exported.pact.interactions.map((i) => [i.description, i.providerStates[0]?.name])).toEqual(
    [
      ['listPets: 200', 'scenario default'],
      ['getPet: 410 operation_removed', 'scenario sunset'],
    ],
  )
}, 60_000)
