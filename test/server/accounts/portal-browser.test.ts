import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandboxServer, type SandboxServer } from '../../../src/server/index.js'
import { curl, seriousViolations } from '../../support/browser/dashboard-page.js'
import { launchChromium } from '../../support/browser/launch-chromium.js'
import {
  bundlePortal,
  makeKeyInPortal,
  openPortalPage,
  rollInPortal,
  seeInPortalLog,
  shootPortal,
  signUpInPortal,
  WAIT,
} from '../../support/browser/portal-page.js'

// The portal in Debian's Chromium against a real server with accounts: sign up, make a key,
// call the API with it, see the request in the page's log, roll the key and see the old one
// refused. Screenshots go to test-results/portal/. The same walk on `--data`, Redis and a
// Redis Cluster: portal-modes-browser.test.ts.

let browser: Browser
let app: SandboxServer
let origin: string
const problems: string[] = []

beforeAll(async () => {
  await bundlePortal()
  app = createSandboxServer({ accounts: 'open', adminToken: 'portal-browser-admin-token-123456' })
  origin = (await app.listen(0, '127.0.0.1')).url
  browser = await launchChromium()
}, 90_000)

afterAll(async () => {
  await browser?.close()
  await app?.close()
})

describe('the portal in Chromium (contract §22)', () => {
  it('signs up, makes a key, sees its request in the log, rolls it and the old key is refused', async () => {
    const page: Page = await openPortalPage(browser, problems)
    await page.goto(`${origin}/portal`)
    await page.getByRole('heading', { name: 'Sign up' }).waitFor(WAIT)
    expect(await seriousViolations(page)).toEqual([])
    await shootPortal(page, 'signed-out')
    await signUpInPortal(page, origin, 'browser@example.com', 'a browser passphrase')
    const key = await makeKeyInPortal(page, 'Mobile app', 'pro')

    const called = await curl(`${origin}/v1/pets?limit=3`, { authorization: `Bearer ${key}` })
    expect(called.status).toBe(200)
    const row = await seeInPortalLog(page, '/v1/pets?limit=3')
    expect(row).toContain('200')
    expect(row).toContain('Mobile app')
    // The key's minute window counts the request.
    await expect
      .poll(() => page.locator('.key-row').first().textContent(), WAIT)
      .toContain('minute 1 / 300')
    await shootPortal(page, 'signed-in')

    const rolled = await rollInPortal(page, key)
    const old = await curl(`${origin}/v1/pets`, { authorization: `Bearer ${key}` })
    expect(old.status).toBe(401)
    expect(JSON.parse(old.body)).toMatchObject({ code: 'invalid_api_key' })
    expect((await curl(`${origin}/v1/pets`, { authorization: `Bearer ${rolled}` })).status).toBe(
      200,
    )
    // A refused key opens no sandbox (decision 0026): its 401 is journaled where keyless requests are.

    // The account's own sandbox from the page: a scenario, then a reset.
    await page.getByLabel('How my sandbox answers').selectOption('empty')
    await page.locator('.scenario-badge', { hasText: 'empty' }).waitFor(WAIT)
    expect((await curl(`${origin}/v1/pets`, { authorization: `Bearer ${rolled}` })).body).toBe('[]')
    await page.getByRole('button', { name: 'Reset my sandbox' }).click()
    await page.locator('.scenario-badge', { hasText: 'default' }).waitFor(WAIT)
    await shootPortal(page, 'after-reset')
    expect(await seriousViolations(page)).toEqual([])

    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('heading', { name: 'Sign in' }).waitFor(WAIT)
    expect(problems).toEqual([])
  })
})
