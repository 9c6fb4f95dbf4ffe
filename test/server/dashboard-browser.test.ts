import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createSandboxServer, type SandboxServer } from '../../src/server/index.js'
import {
  bundleDashboard,
  curl,
  seriousViolations,
  shoot,
} from '../support/browser/dashboard-page.js'
import { launchChromium } from '../support/browser/launch-chromium.js'

// The dashboard in Debian's Chromium against a real server on loopback: requests sent with
// curl appear in the live log, the page's controls change the API's answers, quotas move,
// and the admin-token mode works. Screenshots go to test-results/dashboard/.
const TOKEN = 'dash-board-token-1234'
const FREE = { authorization: 'Bearer sandbox-free' }
const DESKTOP = { width: 1280, height: 900 }
const PHONE = { width: 360, height: 740 }
const WAIT = { timeout: 10_000 }

let browser: Browser
let open: SandboxServer
let guarded: SandboxServer
let origin: string
let guardedOrigin: string
const problems: string[] = []

beforeAll(async () => {
  await bundleDashboard()
  open = createSandboxServer({ maxHoldMs: 1_000, onError: () => {} })
  guarded = createSandboxServer({ adminToken: TOKEN, maxHoldMs: 1_000 })
  origin = (await open.listen(0, '127.0.0.1')).url
  guardedOrigin = (await guarded.listen(0, '127.0.0.1')).url
  browser = await launchChromium()
}, 90_000)

afterAll(async () => {
  await browser?.close()
  await open?.close()
  await guarded?.close()
})

beforeEach(() => open.sandbox.reset())

/** A fresh page at this size; CSP violations and page errors are collected. */
const newPage = async (viewport = DESKTOP): Promise<Page> => {
  const page = await browser.newPage({ viewport })
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`))
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text())
  })
  return page
}

/** Opens the dashboard and waits until its event stream is live. */
const openDashboard = async (page: Page, at = origin): Promise<void> => {
  await page.goto(`${at}/__sandbox/`)
  await page.locator('.stream.live').waitFor(WAIT)
}

const logRow = (page: Page, text: string) => page.locator('.entry', { hasText: text }).first()

describe('the dashboard in Chromium', () => {
  it('shows a request sent with curl in the live log, and its whole exchange on click', async () => {
    const page = await newPage()
    await openDashboard(page)
    const sent = await curl(`${origin}/v1/pets?limit=2&api_key=leaky`, FREE)
    expect(sent.status).toBe(200)
    const started = performance.now()
    const row = logRow(page, '/v1/pets?limit=2')
    await row.waitFor(WAIT)
    const shownAfterMs = performance.now() - started
    console.log(
      `[dashboard] the curl request was in the log ${shownAfterMs.toFixed(0)} ms after curl returned`,
    )
    await expect.poll(() => row.textContent()).toContain('200')
    expect(await row.textContent()).toContain('free')
    expect(await row.textContent()).toContain('api_key=(redacted)')

    await row.click()
    const dialog = page.getByRole('dialog')
    await dialog.waitFor(WAIT)
    const text = (await dialog.textContent()) ?? ''
    expect(text).toContain('Bearer sand…(redacted)')
    expect(text).not.toContain('sandbox-free')
    expect(text.toLowerCase()).toContain('x-ratelimit-remaining')
    expect(text).toContain('"categoryId"')
    await shoot(page, 'desktop-request-detail', { fullPage: false })
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'hidden', ...WAIT })
    await page.close()
  })

  it('shows pet names and other server strings as text, never as markup', async () => {
    const page = await newPage()
    await openDashboard(page)
    const created = await fetch(`${origin}/v1/pets`, {
      method: 'POST',
      headers: { ...FREE, 'content-type': 'application/json' },
      body: JSON.stringify({ name: '<img src=x onerror=alert(1)>Rex', categoryId: 2 }),
    })
    expect(created.status).toBe(201)
    await logRow(page, 'POST').click()
    const dialog = page.getByRole('dialog')
    await expect.poll(() => dialog.textContent()).toContain('<img src=x onerror=alert(1)>Rex')
    await page.keyboard.press('Escape')
    await page.getByRole('button', { name: 'Next' }).click()
    await page.getByRole('button', { name: 'Next' }).click()
    await expect
      .poll(() => page.locator('#pets-title').locator('..').locator('..').textContent())
      .toContain('<img src=x onerror=alert(1)>Rex')
    expect(await page.locator('img').count()).toBe(0)
    await page.close()
  })

  it('filters the log by status class, path and session', async () => {
    const page = await newPage()
    await openDashboard(page)
    await curl(`${origin}/v1/pets?limit=1`, FREE)
    await curl(`${origin}/v1/pets/424242`, FREE)
    await curl(`${origin}/v1/pets`)
    await logRow(page, '/v1/pets/424242').waitFor(WAIT)
    await page.getByLabel('Status').first().selectOption('4xx')
    await expect.poll(() => page.locator('.entry').count()).toBe(2)
    await page.getByLabel('Path contains').fill('424242')
    await expect.poll(() => page.locator('.entry').count()).toBe(1)
    await page.getByLabel('Status').first().selectOption('2xx')
    await expect.poll(() => page.locator('.entry').count()).toBe(0)
    expect(await page.locator('.log').textContent()).toContain('No request matches the filters.')
    await page.getByLabel('Path contains').fill('')
    await page.locator('.filters').getByLabel('Session').selectOption('default')
    await expect.poll(() => page.locator('.entry').count()).toBe(1)
    await page.close()
  })

  it('switches the sticky scenario from the page, and the next API answer follows it', async () => {
    const page = await newPage()
    await openDashboard(page)
    expect(JSON.parse((await curl(`${origin}/v1/pets?limit=1`, FREE)).body)).toHaveLength(1)
    await page.getByRole('radio', { name: /^empty(?!-)/ }).check()
    await page.locator('.scenario-badge', { hasText: 'scenario: empty' }).waitFor(WAIT)
    expect(open.sandbox.scenario.get()).toBe('empty')
    const after = await curl(`${origin}/v1/pets?limit=1`, FREE)
    expect(after.status).toBe(200)
    expect(JSON.parse(after.body)).toEqual([])
    await page.getByRole('radio', { name: /^unavailable/ }).check()
    await page.locator('.scenario-badge', { hasText: 'scenario: unavailable' }).waitFor(WAIT)
    expect((await curl(`${origin}/v1/pets`, FREE)).status).toBe(503)
    await page.close()
  })

  it('moves the quota gauges as requests arrive, and counts down Retry-After for a spent key', async () => {
    const page = await newPage()
    await openDashboard(page)
    const minute = page.getByRole('meter', { name: 'sandbox-free: minute window' })
    await minute.waitFor(WAIT)
    const used = () => minute.evaluate((meter) => (meter as HTMLMeterElement).value)
    const before = await used()
    for (let i = 0; i < 3; i++) await curl(`${origin}/v1/pets?limit=1`, FREE)
    await expect.poll(used, WAIT).toBe(before + 3)

    // A key of two requests a minute, made with the page's form.
    await page.getByRole('combobox', { name: /^Plan/ }).selectOption('enterprise')
    await page.getByLabel('Per minute').fill('2')
    await page.getByRole('button', { name: 'Create key' }).click()
    const created = page.locator('.created code')
    await created.waitFor(WAIT)
    const key = (await created.textContent()) ?? ''
    expect(key).toMatch(/^sk_sandbox_/)
    const auth = { authorization: `Bearer ${key}` }
    expect((await curl(`${origin}/v1/pets`, auth)).status).toBe(200)
    expect((await curl(`${origin}/v1/pets`, auth)).status).toBe(200)
    expect((await curl(`${origin}/v1/pets`, auth)).status).toBe(429)
    const masked = `${key.slice(0, 15)}…`
    const gauge = page.locator('.gauge', { hasText: masked })
    await gauge.locator('.warn', { hasText: 'Retry-After' }).waitFor(WAIT)
    expect(await page.locator('.gauges').textContent()).not.toContain(key)
    await shoot(page, 'desktop-quotas-and-chart', { selector: '.side' })

    // Revoke it from the keys table: its gauge goes, and the API refuses it.
    await page.getByRole('button', { name: `Revoke ${masked}` }).click()
    await gauge.waitFor({ state: 'detached', ...WAIT })
    expect((await curl(`${origin}/v1/pets`, auth)).status).toBe(401)
    await page.close()
  })

  it('shows the client-behaviour report of the session: each finding, its level and its requests', async () => {
    const page = await newPage()
    await openDashboard(page)
    await page.locator('.client-report .empty').waitFor(WAIT)
    await curl(`${origin}/v1/pets/2`, FREE)
    await curl(`${origin}/v1/pets?api_key=sandbox-free`, FREE)
    const findings = page.locator('.client-report .finding')
    await expect.poll(() => findings.count(), WAIT).toBe(2)
    const seqs = open.sandbox.journal.list().map((e) => `#${e.seq}`)
    expect(await findings.nth(0).textContent()).toMatch(
      new RegExp(`^warningdeprecated-operation${seqs[0]}1 call to getPet`),
    )
    expect(await findings.nth(1).textContent()).toMatch(
      new RegExp(`^errorkey-in-query${seqs[1]}1 request sent a credential`),
    )
    expect(await page.locator('.client-report .panel-head .muted').textContent()).toBe(
      '2 requests of default: 1 error, 1 warning',
    )
    await shoot(page, 'desktop-client-report', { selector: '.client-report' })
    await page.close()
  })

  it("lists the OpenAPI document's operations next to the contract's, and labels the log by operation id", async () => {
    const extras = createSandboxServer({
      openapi: new URL('../../examples/openapi/petstore-extras.yaml', import.meta.url).pathname,
    })
    const at = (await extras.listen(0, '127.0.0.1')).url
    try {
      const page = await newPage()
      await openDashboard(page, at)
      await curl(`${at}/v1/categories?limit=2`, FREE)
      await curl(`${at}/v1/categories/999`, FREE)
      await logRow(page, '/v1/categories/999').waitFor(WAIT)
      expect(await logRow(page, '/v1/categories/999').textContent()).toContain('getCategory · ')
      const added = page.locator('.coverage .operation.is-added')
      await expect.poll(() => added.count(), WAIT).toBe(9)
      const ids = await page.locator('.coverage .operation-id').allTextContents()
      expect(ids.slice(0, 3)).toEqual(['listPets', 'createPet', 'getPet'])
      expect(ids).toContain('listCategories')
      expect(ids).toContain('getInventory')
      const getCategory = page.locator('.coverage .operation', { hasText: 'getCategory' })
      await expect
        .poll(async () => getCategory.locator('.met').textContent(), WAIT)
        .toContain('404 ×1')
      expect(await getCategory.textContent()).toContain('GET /categories/{categoryId}')
      expect(await page.locator('.coverage .panel-head .muted').textContent()).toBe(
        '12 (9 added), 2 requests of default',
      )
      await shoot(page, 'desktop-operations', { selector: '.coverage' })
      await page.close()
    } finally {
      await extras.close()
    }
  })

  it('counts an operation whose only requests met a fault as called (issue 37 item 12)', async () => {
    const page = await newPage()
    await openDashboard(page)
    // No answer to read: the client's fetch rejects (curl would exit with an error).
    for (const query of ['network-error', 'empty-response'])
      await fetch(`${origin}/v1/pets?__scenario=${query}`, { headers: FREE }).catch(() => {})
    await curl(`${origin}/v1/pets/1?__scenario=proxy-error`, FREE)
    const listPets = page.locator('.coverage .operation', { hasText: 'listPets' })
    await expect
      .poll(async () => listPets.locator('.met').textContent(), WAIT)
      .toContain('2 met a fault, no answer (network-error ×1)')
    expect(await listPets.locator('.count').textContent()).toBe('2')
    const getPet = page.locator('.coverage .operation', { hasText: 'getPet' })
    await expect.poll(async () => getPet.locator('.met').textContent(), WAIT).toContain('502 ×1')
    const createPet = page.locator('.coverage .operation', { hasText: 'createPet' })
    expect(await createPet.locator('.met').textContent()).toContain('not called yet')
    await page.close()
  })

  it('sets, advances and releases the sandbox clock', async () => {
    const page = await newPage()
    await openDashboard(page)
    await page.getByLabel('Set to (UTC)').fill('2030-12-04T23:59:00')
    await page.getByRole('button', { name: 'Set', exact: true }).click()
    await page.locator('.clock-now', { hasText: '2030-12-04 23:59:00 UTC' }).waitFor(WAIT)
    await page.getByRole('button', { name: '+1 min' }).click()
    await page.locator('.clock-now', { hasText: '2030-12-05 00:00:00 UTC' }).waitFor(WAIT)
    expect(open.sandbox.clock.now()).toBe(Date.parse('2030-12-05T00:00:00Z'))
    // The sunset date has come: getPet answers 410.
    expect((await curl(`${origin}/v1/pets/1`, FREE)).status).toBe(410)
    await page.getByRole('button', { name: 'Back to real time' }).click()
    await page.locator('.badge', { hasText: 'real time' }).waitFor(WAIT)
    expect(open.sandbox.clock.frozen).toBe(false)
    await page.close()
  })

  it('pages through the pets, filters them by status, and resets the sandbox', async () => {
    const page = await newPage()
    await openDashboard(page)
    const pets = page.locator('section', { has: page.locator('#pets-title') })
    await pets.getByText('1–10 of 25').waitFor(WAIT)
    await page.getByRole('button', { name: 'Next' }).click()
    await pets.getByText('11–20 of 25').waitFor(WAIT)
    expect(await pets.locator('tbody tr td:first-child').first().textContent()).toBe('11')
    await pets.getByLabel('Status').selectOption('sold')
    await expect
      .poll(() => pets.locator('tbody tr td:nth-child(4)').allTextContents())
      .not.toContain('available')
    open.sandbox.scenario.set('empty')
    await curl(`${origin}/v1/pets`, FREE)
    await logRow(page, '/v1/pets').waitFor(WAIT)
    await page.getByRole('button', { name: 'Reset sandbox' }).click()
    await page.locator('.scenario-badge', { hasText: 'scenario: default' }).waitFor(WAIT)
    await expect.poll(() => page.locator('.entry').count()).toBe(0)
    await page.close()
  })

  it('hides the session picker while the server has no sessions', async () => {
    const page = await newPage()
    await openDashboard(page)
    const sessions = await fetch(`${origin}/__sandbox/sessions`)
    if (sessions.status === 404) expect(await page.locator('.session-picker').count()).toBe(0)
    else await page.locator('.session-picker').waitFor(WAIT)
    await page.close()
  })

  it('has no serious or critical axe violations, at 360 px and on a desktop, dialog open too', async () => {
    for (const [name, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      const page = await newPage(viewport)
      await openDashboard(page)
      await curl(`${origin}/v1/pets?limit=3`, FREE)
      await curl(`${origin}/v1/pets/999999`, FREE)
      await curl(`${origin}/v1/pets?__scenario=server-error`, FREE)
      await curl(`${origin}/v1/pets?__scenario=rate-limited`, {
        authorization: 'Bearer sandbox-pro',
      })
      await curl(`${origin}/v1/pets`).catch(() => {})
      await logRow(page, '/v1/pets/999999').waitFor(WAIT)
      expect(await seriousViolations(page), `${name}: page`).toEqual([])
      await shoot(page, `${name}-dashboard`)
      await shoot(page, `${name}-log`, { selector: '.log' })
      await shoot(page, `${name}-quotas`, { selector: '.side' })
      await shoot(page, `${name}-controls`, { selector: '.controls' })
      await logRow(page, '/v1/pets/999999').click()
      await page.getByRole('dialog').waitFor(WAIT)
      expect(await seriousViolations(page), `${name}: dialog`).toEqual([])
      await shoot(page, `${name}-request-detail`, { fullPage: false })
      await page.close()
    }
  })

  it('can be used from the keyboard alone: tab to a log entry, open it, close it with Escape', async () => {
    const page = await newPage()
    await openDashboard(page)
    await curl(`${origin}/v1/pets?limit=4`, FREE)
    await logRow(page, '/v1/pets?limit=4').waitFor(WAIT)
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('Skip')
    await page.keyboard.press('Enter')
    let reached = false
    for (let i = 0; i < 12 && !reached; i++) {
      await page.keyboard.press('Tab')
      reached = await page.evaluate(
        () => document.activeElement?.classList.contains('entry') === true,
      )
    }
    expect(reached).toBe(true)
    await page.keyboard.press('Enter')
    await page.getByRole('dialog').waitFor(WAIT)
    await page.keyboard.press('Escape')
    await page.getByRole('dialog').waitFor({ state: 'hidden', ...WAIT })
    await page.close()
  })
})

describe('the dashboard with --admin-token', () => {
  it('loads without the token, asks for it, keeps it for the tab only and sends it on every call', async () => {
    const page = await newPage()
    const sentWithout: string[] = []
    const sentWrong: string[] = []
    page.on('request', (request) => {
      const url = new URL(request.url())
      if (request.headers().authorization === 'Bearer not-the-token') sentWrong.push(url.pathname)
      if (
        url.pathname.startsWith('/__sandbox/') &&
        url.pathname !== '/__sandbox/' &&
        !url.pathname.startsWith('/__sandbox/assets/')
      ) {
        if (request.headers().authorization !== `Bearer ${TOKEN}`) sentWithout.push(url.pathname)
      }
    })
    const shell = await page.goto(`${guardedOrigin}/__sandbox/`)
    expect(shell?.status()).toBe(200)
    const form = page.getByRole('heading', { name: 'Admin token needed' })
    await form.waitFor(WAIT)
    expect(await seriousViolations(page)).toEqual([])
    await shoot(page, 'desktop-token-prompt')
    await page.setViewportSize(PHONE)
    await shoot(page, 'phone-token-prompt')
    await page.setViewportSize(DESKTOP)

    await page.getByLabel('Admin token', { exact: true }).fill('not-the-token')
    await page.getByRole('button', { name: 'Open the dashboard' }).click()
    await page.getByText('That token was refused.').waitFor(WAIT)
    // The panels wait for a token the server took: a wrong one is one refused call, not
    // one per panel (wrong tokens are throttled per address).
    expect(sentWrong).toEqual(['/__sandbox/events'])
    await page.getByLabel('Admin token', { exact: true }).fill(TOKEN)
    await page.getByRole('button', { name: 'Open the dashboard' }).click()
    await page.locator('.stream.live').waitFor(WAIT)
    // The only calls without it were the ones before it was entered.
    sentWithout.length = 0

    await curl(`${guardedOrigin}/v1/pets?limit=3`, FREE)
    await logRow(page, '/v1/pets?limit=3').waitFor(WAIT)
    await page.getByRole('radio', { name: /^empty(?!-)/ }).check()
    await page.locator('.scenario-badge', { hasText: 'scenario: empty' }).waitFor(WAIT)
    expect(guarded.sandbox.scenario.get()).toBe('empty')
    expect(sentWithout).toEqual([])
    expect(await page.evaluate(() => ({ ...sessionStorage }))).toEqual({
      'petstore-sandbox.admin-token': TOKEN,
    })
    expect(await page.evaluate(() => localStorage.length)).toBe(0)
    expect(page.url()).not.toContain(TOKEN)

    // A new tab starts without it.
    const other = await newPage()
    await other.goto(`${guardedOrigin}/__sandbox/`)
    await other.getByRole('heading', { name: 'Admin token needed' }).waitFor(WAIT)
    await other.close()
    await page.close()
  })
})

describe('the page under its Content-Security-Policy', () => {
  it('ran every test without a CSP violation or a page error', () => {
    expect(problems).toEqual([])
  })
})
