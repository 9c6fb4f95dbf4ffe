import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Har as HarFormat } from 'har-format'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandboxServer } from '../../src/server/index.js'
import { launchChromium } from '../support/browser/launch-chromium.js'

// Issue 15, point 5: a session recorded through the sandbox, exported as HAR
// by GET /__sandbox/requests.har, replays in Chromium with Playwright's
// routeFromHAR after the sandbox is gone.
const FREE = { authorization: 'Bearer sandbox-free' }
let browser: Browser
let origin = ''
let harFile = ''
let har: HarFormat

interface PageAnswer {
  status: number
  body: string
  totalCount: string | null
}

const fetchInPage = (
  page: Page,
  path: string,
  init: RequestInit = {},
): Promise<PageAnswer | string> =>
  page.evaluate(
    async ([p, i]) => {
      try {
        const r = await fetch(p, i)
        return {
          status: r.status,
          body: await r.text(),
          totalCount: r.headers.get('x-total-count'),
        }
      } catch (error) {
        return `failed: ${String(error)}`
      }
    },
    [path, init] as const,
  )

beforeAll(async () => {
  const app = createSandboxServer({ seed: 7, pets: 5 })
  origin = (await app.listen(0, '127.0.0.1')).url
  await fetch(`${origin}/v1/pets?limit=2`, { headers: FREE })
  await fetch(`${origin}/v1/pets`, {
    method: 'POST',
    headers: { ...FREE, 'content-type': 'application/json' },
    body: '{"name":"Replayed","categoryId":2}',
  })
  await fetch(`${origin}/v1/pets/999`, { headers: FREE })
  await fetch(`${origin}/v1/pets?status=sold`)
  await fetch(`${origin}/v1/pets?__scenario=network-error`, { headers: FREE }).catch(() => {})
  const response = await fetch(`${origin}/__sandbox/requests.har`)
  expect(response.headers.get('content-disposition')).toContain('.har')
  const text = await response.text()
  har = JSON.parse(text) as HarFormat
  harFile = join(mkdtempSync(join(tmpdir(), 'petstore-har-')), 'session.har')
  writeFileSync(harFile, text)
  // The sandbox is gone: whatever the page gets from now on comes from the HAR.
  await app.close()
  browser = await launchChromium()
}, 60_000)

afterAll(async () => {
  await browser?.close()
})

describe('GET /__sandbox/requests.har', () => {
  it('holds every request in order, with bodies, redacted keys and the failed connection', () => {
    const entries = har.log.entries
    expect(har.log.version).toBe('1.2')
    expect(har.log.creator.name).toBe('petstore-sandbox')
    expect(entries.map((e) => [e.request.method, e.request.url, e.response.status])).toEqual([
      ['GET', `${origin}/v1/pets?limit=2`, 200],
      ['POST', `${origin}/v1/pets`, 201],
      ['GET', `${origin}/v1/pets/999`, 404],
      ['GET', `${origin}/v1/pets?status=sold`, 401],
      ['GET', `${origin}/v1/pets?__scenario=network-error`, 0],
    ])
    expect(entries[1]?.request.postData?.text).toBe('{"name":"Replayed","categoryId":2}')
    expect(JSON.parse(entries[1]?.response.content.text ?? '')).toMatchObject({ name: 'Replayed' })
    expect(entries[4]?._error).toBe('net::ERR_FAILED')
    expect(readFileSync(harFile, 'utf8')).not.toContain('sandbox-free')
  })
})

describe('the HAR replayed with routeFromHAR in Chromium', () => {
  let page: Page

  beforeAll(async () => {
    page = await browser.newPage()
    await page.routeFromHAR(harFile, { url: '**/v1/**', notFound: 'abort' })
    // The app's own page, on the recorded origin so that fetches are same-origin.
    await page.route(`${origin}/app`, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>app</title>' }),
    )
    await page.goto(`${origin}/app`)
  }, 60_000)

  afterAll(async () => {
    await page?.close()
  })

  it('answers a list with the recorded body and headers', async () => {
    const answer = await fetchInPage(page, '/v1/pets?limit=2', { headers: FREE })
    if (typeof answer === 'string') throw new Error(answer)
    expect(answer.status).toBe(200)
    expect(answer.totalCount).toBe('5')
    expect(JSON.parse(answer.body)).toEqual(
      JSON.parse(har.log.entries[0]?.response.content.text ?? ''),
    )
  })

  it('answers the recorded create for the same body, and errors as recorded', async () => {
    const created = await fetchInPage(page, '/v1/pets', {
      method: 'POST',
      headers: { ...FREE, 'content-type': 'application/json' },
      body: '{"name":"Replayed","categoryId":2}',
    })
    expect(created).toMatchObject({ status: 201 })
    expect(await fetchInPage(page, '/v1/pets/999', { headers: FREE })).toMatchObject({
      status: 404,
      body: expect.stringContaining('pet_not_found'),
    })
    expect(await fetchInPage(page, '/v1/pets?status=sold')).toMatchObject({
      status: 401,
      body: expect.stringContaining('missing_api_key'),
    })
  })

  it('fails what was not recorded (notFound: abort)', async () => {
    expect(await fetchInPage(page, '/v1/pets?limit=3', { headers: FREE })).toMatch(/^failed/)
  })
})
