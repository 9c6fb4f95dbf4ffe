import fc from 'fast-check'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConformanceTarget } from '../conformance/parts/target.js'
import { createPlaywrightTarget } from '../conformance/targets/playwright-target.js'
import { launchChromium } from '../support/browser/launch-chromium.js'
import { answerProblems, apiRequest, asFetchSends, fuzzParameters } from './fuzz-support.js'

// Random requests from a real Chromium page through the Playwright entry (installSandbox).
let browser: Browser
let target: ConformanceTarget
beforeAll(async () => {
  browser = await launchChromium()
  target = await createPlaywrightTarget(await browser.newPage())
}, 60_000)
afterAll(async () => {
  await browser?.close()
})

describe('fuzz: the Playwright entry', () => {
  it('answers every random request with a valid success or a JSON Error, never a 5xx', async () => {
    await fc.assert(
      fc
        .asyncProperty(apiRequest, async (request) => {
          // `/v1/../x` leaves the routed API for the page's own blank document.
          fc.pre(!asFetchSends(request.path).startsWith('/..'))
          const response = await target.send(request)
          expect(
            answerProblems(request, response, { normalizesUrl: true }),
            `${request.method} ${request.path}`,
          ).toEqual([])
        })
        .beforeEach(async () => {
          await target.controls.reset()
        }),
      fuzzParameters(80),
    )
    await target.controls.reset()
    const pets = await target.send({
      method: 'GET',
      path: '/pets',
      headers: { authorization: 'Bearer sandbox-free' },
    })
    expect(pets.status).toBe(200)
  })
})
