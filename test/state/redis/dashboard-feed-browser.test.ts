import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandboxServer, type SandboxServer } from '../../../src/server/index.js'
import { bundleDashboard, curl, shoot } from '../../support/browser/dashboard-page.js'
import { launchChromium } from '../../support/browser/launch-chromium.js'
import { startTestCluster, type TestCluster } from '../../support/redis-cluster.js'

// Issue 22: one live view. Two instances on a real Redis Cluster; the
// dashboard of instance A, open in Debian's Chromium, shows a request that
// instance B answered, naming B. Screenshot: test-results/dashboard/.
const WAIT = { timeout: 10_000 }
let cluster: TestCluster
let browser: Browser
let a: SandboxServer
let b: SandboxServer
let originA: string
let originB: string

beforeAll(async () => {
  await bundleDashboard()
  cluster = await startTestCluster()
  a = createSandboxServer({ store: cluster.url, instance: 'instance-a' })
  b = createSandboxServer({ store: cluster.url, instance: 'instance-b' })
  originA = (await a.listen(0, '127.0.0.1')).url
  originB = (await b.listen(0, '127.0.0.1')).url
  browser = await launchChromium()
}, 90_000)
afterAll(async () => {
  await browser?.close()
  await a?.close()
  await b?.close()
  await cluster?.dispose()
})

describe('one dashboard for every instance on a store', () => {
  it("shows in instance A's live log a request that instance B answered, naming B", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    await page.goto(`${originA}/__sandbox/`)
    await page.locator('.stream.live').waitFor(WAIT)
    const sent = await curl(`${originB}/v1/pets?limit=3&answered=by-b`, {
      authorization: 'Bearer sandbox-free',
    })
    expect(sent.status).toBe(200)
    const row = page.locator('.entry', { hasText: 'answered=by-b' }).first()
    await row.waitFor(WAIT)
    expect(await row.textContent()).toContain('instance-b')
    expect(await row.textContent()).toContain('200')
    // A's own request shows as A's.
    await curl(`${originA}/v1/pets?limit=1&answered=by-a`, { authorization: 'Bearer sandbox-free' })
    const own = page.locator('.entry', { hasText: 'answered=by-a' }).first()
    await own.waitFor(WAIT)
    expect(await own.textContent()).toContain('instance-a')
    // The quota gauges count what both instances admitted (pushed every second).
    await expect
      .poll(() => page.locator('body').textContent(), { timeout: 5_000 })
      .toMatch(/minute\s*2 \/ 60/)
    await shoot(page, 'instances-feed', { fullPage: false })
    await row.click()
    await expect
      .poll(() => page.getByRole('dialog').textContent())
      .toContain('answered by instance-b')
    await page.close()
  }, 30_000)
})
