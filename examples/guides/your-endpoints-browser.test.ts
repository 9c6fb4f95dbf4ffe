import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { parse } from 'yaml'
import { launchChromium } from '../../test/support/browser/launch-chromium.js'
import { type StaticServer, serveStatic } from '../app/serve-static.js'

// The browser example of docs/your-endpoints.md, as written: browser/main.ts bundled
// the way its first line says against the built package (dist/, as an app installs it;
// code splitting on, so faker and the OpenAPI machinery arrive as chunks of their own),
// served with MSW's worker script and the example document as extras.json, in Chromium.
const dist = (path: string) => fileURLToPath(new URL(`../../dist/${path}`, import.meta.url))
let browser: Browser
let root: string
let server: StaticServer
let page: Page
const failed: string[] = []

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'petstore-guide-browser-'))
  await build({
    entryPoints: [fileURLToPath(new URL('./browser/main.ts', import.meta.url))],
    outdir: root,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'warning',
    alias: {
      'petstore-sandbox/browser': dist('runtimes/browser.js'),
      'petstore-sandbox': dist('index.js'),
    },
  })
  await copyFile(new URL('./browser/index.html', import.meta.url), join(root, 'index.html'))
  const extras = parse(await readFile('examples/openapi/petstore-extras.yaml', 'utf8'))
  await writeFile(join(root, 'extras.json'), JSON.stringify(extras))
  const worker = createRequire(import.meta.url).resolve('msw/mockServiceWorker.js')
  await copyFile(worker, join(root, 'mockServiceWorker.js'))
  server = await serveStatic({ root })
  browser = await launchChromium()
  page = await browser.newPage()
  page.on('pageerror', (error) => failed.push(error.message))
  await page.goto(`${server.origin}/`)
  await page.waitForFunction(() => document.querySelectorAll('#categories li').length > 0)
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
  if (root !== undefined) await rm(root, { recursive: true, force: true })
})

const fetchInPage = (path: string, key?: string) =>
  page.evaluate(
    async ([url, auth]) => {
      const response = await fetch(
        url,
        auth === undefined ? {} : { headers: { authorization: `Bearer ${auth}` } },
      )
      return { status: response.status, body: (await response.json()) as unknown }
    },
    [path, key] as const,
  )

it('lists the document’s categories from the built package, answered by the service worker', async () => {
  const names = await page.locator('#categories li').allTextContents()
  expect(names).toHaveLength(3)
  expect(names.every((name) => name.trim() !== '')).toBe(true)
  expect(failed).toEqual([])
})

it('asks the document’s operations for a key, and validates them with the contract’s Error body', async () => {
  expect(await fetchInPage('/v1/categories')).toMatchObject({
    status: 401,
    body: { code: 'missing_api_key', status: 401 },
  })
  expect(await fetchInPage('/v1/categories?limit=0', 'sandbox-free')).toMatchObject({
    status: 400,
    body: { code: 'invalid_parameter', status: 400, details: [{ field: 'limit' }] },
  })
})

it('answers the public handler without a key, and seeds the pets of seed 7 (faker loaded on demand)', async () => {
  expect(await fetchInPage('/v1/status')).toEqual({ status: 200, body: { ok: true } })
  const pets = await fetchInPage('/v1/pets?limit=3', 'sandbox-free')
  const { seedPets } = await import('../../src/db/seed-pets.js')
  expect(pets).toEqual({
    status: 200,
    body: seedPets({ seed: 7, count: 3 }).map((pet, i) => ({ id: i + 1, ...pet })),
  })
})
