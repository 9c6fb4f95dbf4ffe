import type { Page } from 'playwright-core'
import {
  installSandbox,
  type PlaywrightSandbox,
  type PlaywrightSandboxOptions,
} from '../../../src/runtimes/playwright.js'
import { sendFromPage } from '../../support/browser/send-from-page.js'
import { localControls } from '../../support/local-controls.js'
import { type ConformanceTarget, inSession } from '../parts/target.js'

/** The API's origin in these tests; nothing listens there, the route answers. */
export const ROUTED_ORIGIN = 'https://api.petstore.test'

/**
 * The Playwright entry as the conformance suite sees it: `fetch`es inside a
 * real page on the API's own origin, routed by `installSandbox` into a sandbox
 * in this process, whose controls the test holds directly.
 *
 * @example
 * const target = await createPlaywrightTarget(page)
 * defineConformanceSuite(() => target)
 */
export const createPlaywrightTarget = async (
  page: Page,
  options: PlaywrightSandboxOptions = {},
): Promise<ConformanceTarget & { sandbox: PlaywrightSandbox }> => {
  const baseUrl = `${ROUTED_ORIGIN}/v1`
  const sandbox = await installSandbox(page, { baseUrl, ...options })
  // A blank document on the API's origin, so that the suite's requests are same-origin.
  await page.route(`${ROUTED_ORIGIN}/`, (route) =>
    route.fulfill({
      status: 200,
      contentType: 'text/html',
      body: '<!doctype html><title>api</title>',
    }),
  )
  await page.goto(`${ROUTED_ORIGIN}/`)
  const target: ConformanceTarget & { sandbox: PlaywrightSandbox } = {
    name: 'playwright (page.route in Chromium)',
    baseUrl,
    sandbox,
    send: (request) => sendFromPage(page, baseUrl, request),
    controls: localControls(sandbox),
    session: (id) => inSession(target, id, localControls(sandbox.session(id))),
  }
  return target
}
