import { rm } from 'node:fs/promises'
import type { Browser, ConsoleMessage } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type StaticServer, serveStatic } from '../../examples/app/serve-static.js'
import { buildSandboxPage } from '../support/browser/build-sandbox-page.js'
import { launchChromium } from '../support/browser/launch-chromium.js'

// Issue 15, point 7: an unknown ?__scenario in the page's URL is reported in
// one console line, without a stack, and the page still starts.
let root: string
let server: StaticServer
let browser: Browser

beforeAll(async () => {
  root = await buildSandboxPage()
  server = await serveStatic({ root })
  browser = await launchChromium()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
  if (root !== undefined) await rm(root, { recursive: true, force: true })
})

describe('an unknown ?__scenario on the page', () => {
  it('warns in one line naming the valid scenarios, and the sandbox still starts', async () => {
    const page = await browser.newPage()
    const messages: ConsoleMessage[] = []
    page.on('console', (message) => messages.push(message))
    await page.goto(`${server.origin}/?__scenario=nope`)
    await page.waitForSelector('body[data-ready="true"]', { state: 'attached' })
    const ours = messages.filter((m) => m.text().includes('petstore-sandbox'))
    expect(ours).toHaveLength(1)
    const [warning] = ours
    expect(warning?.type()).toBe('warning')
    expect(warning?.text()).toMatch(/^\[petstore-sandbox\] \?__scenario=nope ignored: .*"nope"/)
    expect(warning?.text()).toContain('default, empty')
    expect(warning?.text()).not.toContain('\n')
    expect(await page.evaluate(() => window.petstoreSandbox?.scenario.get())).toBe('default')
    await page.close()
  })
})
