import { copyFile, mkdtemp, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launchChromium } from '../../test/support/browser/launch-chromium.js'
import { type StaticServer, serveStatic } from '../app/serve-static.js'

// The README's browser example, as written: browser/index.html and
// browser/main.ts, bundled the way its first line says, served with MSW's
// worker script, opened in Chromium.
let browser: Browser
let root: string
let server: StaticServer

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'petstore-readme-browser-'))
  await build({
    entryPoints: [fileURLToPath(new URL('./browser/main.ts', import.meta.url))],
    outfile: join(root, 'main.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'warning',
    alias: {
      'petstore-sandbox/browser': fileURLToPath(
        new URL('../../src/runtimes/browser.ts', import.meta.url),
      ),
    },
  })
  await copyFile(new URL('./browser/index.html', import.meta.url), join(root, 'index.html'))
  const worker = createRequire(import.meta.url).resolve('msw/mockServiceWorker.js')
  await copyFile(worker, join(root, 'mockServiceWorker.js'))
  server = await serveStatic({ root })
  browser = await launchChromium()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
  if (root !== undefined) await rm(root, { recursive: true, force: true })
})

it('lists the first page of seeded pets, answered by the service worker', async () => {
  const page = await browser.newPage()
  const failed: string[] = []
  page.on('pageerror', (error) => failed.push(error.message))
  await page.goto(`${server.origin}/`)
  await page.waitForFunction(() => document.querySelectorAll('#pets li').length > 0)
  const names = await page.locator('#pets li').allTextContents()
  expect(names).toHaveLength(20)
  expect(names.every((name) => name.trim() !== '')).toBe(true)
  expect(failed).toEqual([])
  await page.close()
}, 30_000)
