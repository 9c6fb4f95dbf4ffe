import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe } from 'vitest'
import { launchChromium } from '../../support/browser/launch-chromium.js'
import { defineConformanceSuite } from '../parts/define-conformance-suite.js'
import { defineSessionConformance } from '../parts/define-session-conformance.js'
import { OWN_HANDLERS } from '../parts/own-handlers.js'
import type { ConformanceTarget } from '../parts/target.js'
import { createPlaywrightTarget } from './playwright-target.js'

// The conformance suite inside real Chromium, through the Playwright entry (page.route).
let browser: Browser
let target: ConformanceTarget

beforeAll(async () => {
  browser = await launchChromium()
  target = await createPlaywrightTarget(await browser.newPage())
}, 60_000)

afterAll(async () => {
  await browser?.close()
})

defineConformanceSuite(() => target)
defineSessionConformance(() => target)

// Your own handlers inside the pipeline (contract §20): installSandbox's `handlers` option.
let withHandlers: ConformanceTarget
describe('with your own handlers', () => {
  beforeAll(async () => {
    withHandlers = await createPlaywrightTarget(await browser.newPage(), { handlers: OWN_HANDLERS })
  }, 60_000)
  defineConformanceSuite(() => withHandlers, { title: 'own handlers', parts: ['ownHandlers'] })
})
