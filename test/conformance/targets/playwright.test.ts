import type { Browser } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { launchChromium } from '../../support/browser/launch-chromium.js'
import { defineConformanceSuite } from '../parts/define-conformance-suite.js'
import { defineSessionConformance } from '../parts/define-session-conformance.js'
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
