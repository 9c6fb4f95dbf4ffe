import { execFile } from 'node:child_process'
import { mkdir } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { expect } from 'vitest'

// The steps of the portal page (contract §22) that the browser tests share: each takes the
// page and does what a person does, through the page's labels and roles.

const run = promisify(execFile)

/** Where the portal tests keep their screenshots (gitignored). */
const PORTAL_SHOTS = fileURLToPath(new URL('../../../test-results/portal/', import.meta.url))

/** How long a step waits for the page (the page polls every 2 s). */
export const WAIT = { timeout: 15_000 }

/** Builds the page into dist/portal, as `npm run build` does, so the test never serves a stale bundle. */
export const bundlePortal = async (): Promise<void> => {
  const script = fileURLToPath(new URL('../../../scripts/bundle-portal.mjs', import.meta.url))
  await run(process.execPath, [script], { timeout: 60_000 })
}

/**
 * A page in a context of its own (its own cookies: every server of a test listens on
 * 127.0.0.1, and a cookie does not tell ports apart), with its script errors and CSP
 * refusals collected in `problems`.
 */
export const openPortalPage = async (
  from: Browser | BrowserContext,
  problems: string[],
): Promise<Page> => {
  const context =
    'newContext' in from ? await from.newContext({ viewport: { width: 1280, height: 900 } }) : from
  const page = await context.newPage()
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`))
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text())
  })
  return page
}

/** Saves a full-page screenshot as `test-results/portal/<name>.png`; resolves its path. */
export const shootPortal = async (page: Page, name: string): Promise<string> => {
  await mkdir(PORTAL_SHOTS, { recursive: true })
  const path = `${PORTAL_SHOTS}${name}.png`
  await page.screenshot({ path, fullPage: true })
  return path
}

/** Waits until the page shows the signed-in view (the account's keys). */
export const signedInView = (page: Page) =>
  page.getByRole('heading', { name: 'My API keys' }).waitFor(WAIT)

/** Opens the portal and signs up; resolves once the page shows the account. */
export const signUpInPortal = async (
  page: Page,
  origin: string,
  email: string,
  password: string,
): Promise<void> => {
  await page.goto(`${origin}/portal`)
  await page.getByRole('heading', { name: 'Sign up' }).waitFor(WAIT)
  const form = page.locator('form', { has: page.getByRole('heading', { name: 'Sign up' }) })
  await form.getByLabel('Email').fill(email)
  await form.getByLabel('Password (12 characters or more)').fill(password)
  await form.getByRole('button', { name: 'Create my account' }).click()
  await signedInView(page)
  expect(await page.textContent('header')).toContain(email)
}

/** Signs in with the form of a signed-out portal page. */
export const signInInPortal = async (page: Page, email: string, password: string) => {
  const form = page.locator('form', { has: page.getByRole('heading', { name: 'Sign in' }) })
  await form.getByLabel('Email').fill(email)
  await form.getByLabel('Password').fill(password)
  await form.getByRole('button', { name: 'Sign in' }).click()
  await signedInView(page)
}

/** Makes a key with a name and a plan; resolves the whole key the page shows once. */
export const makeKeyInPortal = async (page: Page, name: string, plan: string): Promise<string> => {
  await page.getByLabel('Name').fill(name)
  await page.getByLabel('Plan').selectOption(plan)
  await page.getByRole('button', { name: 'Make a key' }).click()
  const shown = page.locator('.new-key')
  await shown.waitFor(WAIT)
  const key = (await shown.textContent()) ?? ''
  expect(key).toMatch(/^sk_acct_[0-9a-f]{48}$/)
  return key
}

/** Waits for a request to `path` in the page's log; resolves the row's text. */
export const seeInPortalLog = async (page: Page, path: string): Promise<string> => {
  const row = page.locator('.portal-log li', { hasText: path }).first()
  await row.waitFor(WAIT)
  return (await row.textContent()) ?? ''
}

/** Rolls the first key of the list; resolves the new key the page shows (not `old`). */
export const rollInPortal = async (page: Page, old: string): Promise<string> => {
  const shown = page.locator('.new-key')
  await page.locator('.key-row').first().getByRole('button', { name: 'Roll' }).click()
  await expect.poll(() => shown.textContent(), WAIT).not.toBe(old)
  const rolled = (await shown.textContent()) ?? ''
  expect(rolled).toMatch(/^sk_acct_[0-9a-f]{48}$/)
  return rolled
}
