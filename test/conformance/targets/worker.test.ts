import { rm } from 'node:fs/promises'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe } from 'vitest'
import { type StaticServer, serveStatic } from '../../../examples/app/serve-static.js'
import { buildSandboxPage } from '../../support/browser/build-sandbox-page.js'
import { launchChromium } from '../../support/browser/launch-chromium.js'
import { defineConformanceSuite } from '../parts/define-conformance-suite.js'
import { defineSessionConformance } from '../parts/define-session-conformance.js'
import type { ConformanceTarget } from '../parts/target.js'
import { createWorkerTarget } from './worker-target.js'

// The conformance suite inside real Chromium, through MSW's service worker.
let root: string
let server: StaticServer
let browser: Browser
let page: Page
let target: ConformanceTarget

beforeAll(async () => {
  root = await buildSandboxPage()
  server = await serveStatic({ root })
  browser = await launchChromium()
  page = await browser.newPage()
  await page.goto(`${server.origin}/`)
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached' })
  target = createWorkerTarget(() => page, server.origin)
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
  if (root !== undefined) await rm(root, { recursive: true, force: true })
})

defineConformanceSuite(() => target)
defineSessionConformance(() => target)

// Your own handlers inside the pipeline (contract §20), through the service worker: a second
// page of the same origin (MSW answers each page with its own handlers) started with OWN_HANDLERS.
let ownPage: Page
let withHandlers: ConformanceTarget
describe('with your own handlers', () => {
  beforeAll(async () => {
    ownPage = await browser.newPage()
    await ownPage.goto(`${server.origin}/?own`)
    await ownPage.waitForSelector('body[data-ready="true"]', { state: 'attached' })
    withHandlers = createWorkerTarget(() => ownPage, server.origin)
  }, 60_000)
  defineConformanceSuite(() => withHandlers, { title: 'own handlers', parts: ['ownHandlers'] })
})
