import { execFile } from 'node:child_process'
import { mkdir } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandboxServer, type SandboxServer } from '../../../src/server/index.js'
import { curl, seriousViolations } from '../../support/browser/dashboard-page.js'
import { launchChromium } from '../../support/browser/launch-chromium.js'

// The portal in Debian's Chromium against a real server with accounts: sign up, make a key,
// call the API with it, see the request in the page's log, roll the key and see the old one
// refused. Screenshots go to test-results/portal/.
const SHOTS = 'test-results/portal/'
const WAIT = { timeout: 15_000 }

let browser: Browser
let app: SandboxServer
let origin: string
const problems: string[] = []

beforeAll(async () => {
  // Built as `npm run build` does, so the test never serves a stale page.
  const script = fileURLToPath(new URL('../../../scripts/bundle-portal.mjs', import.meta.url))
  await promisify(execFile)(process.execPath, [script], { timeout: 60_000 })
  app = createSandboxServer({ accounts: 'open', adminToken: 'portal-browser-admin-token-123456' })
  origin = (await app.listen(0, '127.0.0.1')).url
  browser = await launchChromium()
}, 90_000)

afterAll(async () => {
  await browser?.close()
  await app?.close()
})

const newPage = async (): Promise<Page> => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`))
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text())
  })
  return page
}

const shoot = async (page: Page, name: string) => {
  await mkdir(SHOTS, { recursive: true })
  await page.screenshot({ path: `${SHOTS}${name}.png`, fullPage: true })
}

describe('the portal in Chromium (contract §22)', () => {
  it('signs up, makes a key, sees its request in the log, rolls it and the old key is refused', async () => {
    const page = await newPage()
    await page.goto(`${origin}/portal`)
    await page.getByRole('heading', { name: 'Sign up' }).waitFor(WAIT)
    expect(await seriousViolations(page)).toEqual([])
    await shoot(page, 'signed-out')
    const signup = page.locator('form', { has: page.getByRole('heading', { name: 'Sign up' }) })
    await signup.getByLabel('Email').fill('browser@example.com')
    await signup.getByLabel('Password (12 characters or more)').fill('a browser passphrase')
    await signup.getByRole('button', { name: 'Create my account' }).click()
    await page.getByRole('heading', { name: 'My API keys' }).waitFor(WAIT)
    expect(await page.textContent('header')).toContain('browser@example.com')

    await page.getByLabel('Name').fill('Mobile app')
    await page.getByLabel('Plan').selectOption('pro')
    await page.getByRole('button', { name: 'Make a key' }).click()
    const shown = page.locator('.new-key')
    await shown.waitFor(WAIT)
    const key = (await shown.textContent()) ?? ''
    expect(key).toMatch(/^sk_acct_[0-9a-f]{48}$/)

    const called = await curl(`${origin}/v1/pets?limit=3`, { authorization: `Bearer ${key}` })
    expect(called.status).toBe(200)
    const row = page.locator('.portal-log li', { hasText: '/v1/pets?limit=3' }).first()
    await row.waitFor(WAIT)
    expect(await row.textContent()).toContain('200')
    expect(await row.textContent()).toContain('Mobile app')
    // The key's minute window counts the request.
    await expect
      .poll(() => page.locator('.key-row').first().textContent(), WAIT)
      .toContain('minute 1 / 300')
    await shoot(page, 'signed-in')

    await page.locator('.key-row').first().getByRole('button', { name: 'Roll' }).click()
    await expect.poll(() => shown.textContent(), WAIT).not.toBe(key)
    const rolled = (await shown.textContent()) ?? ''
    expect(rolled).toMatch(/^sk_acct_[0-9a-f]{48}$/)
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
    await shoot(page, 'after-reset')
    expect(await seriousViolations(page)).toEqual([])

    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('heading', { name: 'Sign in' }).waitFor(WAIT)
    expect(problems).toEqual([])
  })
})
