import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandboxServer, type SandboxServer } from '../../src/server/index.js'
import { bundleDocs, recordRequests, shootDocs } from '../support/browser/docs-page.js'
import { launchChromium } from '../support/browser/launch-chromium.js'

// GET /__sandbox/docs in Debian's Chromium against a real server on loopback: Swagger UI
// renders the three operations from the server's own files, nothing leaves the origin, the
// CSP holds, and try-it's requests land in the journal with the key, scenario and session
// chosen in the bar. Screenshots go to test-results/docs/.
const TOKEN = 'docs-admin-token-5678'
// Swagger UI is 1.6 MB of script: on a busy two-core machine a load takes seconds.
const WAIT = { timeout: 45_000 }

let browser: Browser
let open: SandboxServer
let guarded: SandboxServer
let origin: string
let guardedOrigin: string

beforeAll(async () => {
  await bundleDocs()
  open = createSandboxServer({ maxHoldMs: 1_000 })
  guarded = createSandboxServer({ adminToken: TOKEN, maxHoldMs: 1_000 })
  origin = (await open.listen(0, '127.0.0.1')).url
  guardedOrigin = (await guarded.listen(0, '127.0.0.1')).url
  browser = await launchChromium()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await open?.close()
  await guarded?.close()
})

/** A fresh page; CSP violations, page errors and failed loads are collected in `problems`. */
const newPage = async (at: string) => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  const problems: string[] = []
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`))
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content Security Policy|Refused to/i.test(message.text()))
      problems.push(message.text())
  })
  const requests = await recordRequests(page, at)
  return { page, problems, requests }
}

const operation = (page: Page, id: string) => page.locator(`#operations-pets-${id}`)

interface Entry {
  operation: string | null
  session: string
  scenario: string
  plan: string | undefined
  keyRef: string | null
  status: number | null
  url: string
}

const journal = async (at: string, session: string): Promise<Entry[]> => {
  const response = await fetch(`${at}/__sandbox/requests`, {
    headers: { 'X-Sandbox-Session': session },
  })
  return (await response.json()) as Entry[]
}

describe('the API reference in Chromium', { timeout: 120_000 }, () => {
  it('renders the three operations from the server alone, under its CSP', async () => {
    const { page, problems, requests } = await newPage(origin)
    await page.goto(`${origin}/__sandbox/docs`)
    for (const id of ['listPets', 'createPet', 'getPet']) await operation(page, id).waitFor(WAIT)
    expect(await operation(page, 'listPets').locator('.opblock-summary-path').textContent()).toBe(
      '/pets',
    )
    expect(await operation(page, 'getPet').getAttribute('class')).toContain('deprecated')
    // The key picker lists the demo keys in full, read through the control API.
    const keys = await page.locator('#try-key option').allTextContents()
    expect(keys).toEqual(expect.arrayContaining(['sandbox-free (free)', 'sandbox-pro (pro)']))
    await shootDocs(page, 'reference')
    expect(requests.foreign).toEqual([])
    expect(requests.all.length).toBeGreaterThanOrEqual(5)
    expect(problems).toEqual([])
    await page.close()
  })

  it("sends try-it's request with the chosen key, scenario and session, and the journal has it", async () => {
    const { page, problems, requests } = await newPage(origin)
    await page.goto(`${origin}/__sandbox/docs`)
    await operation(page, 'listPets').waitFor(WAIT)
    await page.locator('#try-key').selectOption('sandbox-pro')
    await page.locator('#try-scenario').selectOption('empty')
    await page.locator('#try-session').fill('docs-e2e.1')
    await page.locator('#try-session').press('Tab')
    // The key list is read again for the session; the chosen key stays.
    await expect.poll(() => page.locator('#try-key').inputValue()).toBe('sandbox-pro')

    const list = operation(page, 'listPets')
    await list.locator('.opblock-summary').click()
    await list.locator('button.execute').click()
    const status = list.locator('.live-responses-table .response .response-col_status')
    await expect.poll(() => status.first().textContent(), WAIT).toContain('200')
    expect(await list.locator('.live-responses-table .microlight').first().textContent()).toBe('[]')
    await list.scrollIntoViewIfNeeded()
    await shootDocs(page, 'try-it-list-pets')

    const entries = await journal(origin, 'docs-e2e.1')
    expect(entries).toHaveLength(1)
    expect(entries[0]).toMatchObject({
      operation: 'listPets',
      session: 'docs-e2e.1',
      scenario: 'empty',
      plan: 'pro',
      status: 200,
    })
    expect(entries[0]?.keyRef).toMatch(/^sand…#/)
    expect(await journal(origin, 'default')).toEqual([])
    expect(requests.foreign).toEqual([])
    expect(problems).toEqual([])
    await page.close()
  })

  it('creates a run-time key in the session and uses it; a scenario answers through try-it', async () => {
    const { page, problems } = await newPage(origin)
    await page.goto(`${origin}/__sandbox/docs`)
    await operation(page, 'getPet').waitFor(WAIT)
    await page.locator('#try-session').fill('docs-e2e.2')
    await page.locator('#try-session').press('Tab')
    await page.locator('#try-plan').selectOption('business')
    await page.locator('#try-create-key').click()
    await expect.poll(() => page.locator('#try-it-status').textContent(), WAIT).toContain('Created')
    const key = await page.locator('#try-key').inputValue()
    expect(key).toMatch(/^sk_sandbox_/)
    await page.locator('#try-scenario').selectOption('rate-limited')

    const get = operation(page, 'getPet')
    await get.locator('.opblock-summary').click()
    await get.locator('input[placeholder="petId"]').fill('1')
    await get.locator('button.execute').click()
    const status = get.locator('.live-responses-table .response .response-col_status')
    await expect.poll(() => status.first().textContent(), WAIT).toContain('429')
    await get.scrollIntoViewIfNeeded()
    await shootDocs(page, 'try-it-rate-limited')

    const [entry] = await journal(origin, 'docs-e2e.2')
    expect(entry).toMatchObject({
      operation: 'getPet',
      scenario: 'rate-limited',
      plan: 'business',
      status: 429,
    })
    expect(entry?.keyRef).toMatch(/^sk_s…#/)
    // Chromium logs every 4xx it loads; the forced 429 is the one expected.
    expect(problems.filter((p) => !p.includes('status of 429'))).toEqual([])
    await page.close()
  })

  it('asks for the admin token on a server that has one, then loads the reference', async () => {
    const { page, requests } = await newPage(guardedOrigin)
    await page.goto(`${guardedOrigin}/__sandbox/docs`)
    const token = page.locator('.docs-token input')
    await token.waitFor(WAIT)
    expect(await page.locator('#try-it-status').textContent()).toContain('admin token')
    expect(await operation(page, 'listPets').count()).toBe(0)
    await token.fill(TOKEN)
    await page.locator('.docs-token button').click()
    await operation(page, 'listPets').waitFor(WAIT)
    expect(await page.locator('.docs-token').isHidden()).toBe(true)
    expect(requests.foreign).toEqual([])
    await page.close()
  })
})
