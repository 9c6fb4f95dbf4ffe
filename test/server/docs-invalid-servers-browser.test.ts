import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { prepareForTryIt } from '../../src/server/docs/app/prepare-for-try-it.js'
import { createSandboxServer, type SandboxServer } from '../../src/server/index.js'
import { bundleDocs, recordRequests, shootDocs } from '../support/browser/docs-page.js'
import { launchChromium } from '../support/browser/launch-chromium.js'

// Issue 37 item 17: one operation whose `servers` URL cannot be parsed (`http://[::1`) left
// /__sandbox/docs blank in Chromium ("Failed to construct 'URL'"). The page shows every
// operation whatever one of them says; try-it of that operation goes to this server.
const WAIT = { timeout: 45_000 }
const list = (id: string) => ({
  operationId: id,
  responses: {
    '200': {
      description: 'The list.',
      content: {
        'application/json': {
          schema: {
            type: 'array',
            items: {
              type: 'object',
              required: ['id', 'name'],
              properties: { id: { type: 'integer' }, name: { type: 'string' } },
            },
          },
        },
      },
    },
  },
})
const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'Odd servers', version: '1.0.0' },
  paths: {
    '/categories': { get: { ...list('listCategories'), servers: [{ url: 'http://[::1' }] } },
    // At the path's level, next to one that parses: the bad one is left out, the good one moved.
    '/tags': {
      servers: [{ url: 'http://[::1:80/x' }, { url: 'https://api.example.test/v1' }],
      get: list('listTags'),
    },
    '/colours': { get: list('listColours') },
  },
}

let browser: Browser
let app: SandboxServer<string>
let origin: string

beforeAll(async () => {
  await bundleDocs()
  app = createSandboxServer({ openapi: DOCUMENT })
  origin = (await app.listen(0, '127.0.0.1')).url
  browser = await launchChromium()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await app?.close()
})

describe('an operation with a server URL that does not parse', { timeout: 120_000 }, () => {
  it('drops the bad URLs from the try-it copy, keeping the others moved to this server', () => {
    const copy = prepareForTryIt(DOCUMENT, 'http://127.0.0.1:4010', '/v1') as {
      paths: Record<string, Record<string, unknown> & { get: Record<string, unknown> }>
    }
    // None left: the operation falls back to the document's servers, this server.
    expect(copy.paths['/categories']?.get).not.toHaveProperty('servers')
    expect(copy.paths['/tags']?.servers).toEqual([{ url: 'http://127.0.0.1:4010/v1' }])
  })

  it('still renders every operation in Chromium, and try-it reaches this server', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    const problems: string[] = []
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`))
    const requests = await recordRequests(page, origin)
    await page.goto(`${origin}/__sandbox/docs`)
    for (const id of ['listPets', 'listCategories', 'listTags', 'listColours'])
      await page.locator(`[id$="-${id}"]`).first().waitFor(WAIT)
    const categories = page.locator('[id$="-listCategories"]').first()
    await categories.locator('.opblock-summary').click()
    await categories.locator('button.execute').click()
    const status = categories.locator('.live-responses-table .response .response-col_status')
    await expect.poll(() => status.first().textContent(), WAIT).toContain('200')
    await shootDocs(page, 'invalid-server-url')
    expect(requests.foreign).toEqual([])
    expect(problems).toEqual([])
    await page.close()
  })
})
