import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROXY_ERROR_PAGE } from '../../src/faults/proxy-error.js'
import { installSandbox } from '../../src/runtimes/playwright.js'
import { createSandboxServer } from '../../src/server/index.js'
import { launchChromium } from '../support/browser/launch-chromium.js'
import { type FetchProbe, probeFetch } from './probe-fetch.js'
import { rawExchange, requestText } from './raw-exchange.js'

// Issue 37 item 9: a stock gateway's 502 has no CORS headers, so a cross-origin page's fetch
// fails (TypeError) and its XHR fires `error`, where a same-origin page reads the 502. The
// sandbox's proxy-error does the same in real Chromium, unless `__cors=keep` asks for them.
const sandbox = createSandboxServer({ maxHoldMs: 5_000 })
let api = ''
let appServer: Server
let appOrigin = ''
let browser: Browser
let page: Page
let routed: Page

beforeAll(async () => {
  api = `${(await sandbox.listen(0, '127.0.0.1')).url}/v1`
  // The app's own origin: another port, so every call to the sandbox is cross-origin.
  appServer = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' })
    res.end('<!doctype html><title>app</title>')
  })
  await new Promise<void>((resolve) => appServer.listen(0, '127.0.0.1', resolve))
  appOrigin = `http://127.0.0.1:${(appServer.address() as AddressInfo).port}`
  browser = await launchChromium()
  page = await browser.newPage()
  await page.goto(`${appOrigin}/`)
  routed = await browser.newPage()
  await installSandbox(routed, { baseUrl: 'https://api.example.test/v1' })
  await routed.goto(`${appOrigin}/`)
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await new Promise((resolve) => appServer?.close(resolve))
  await sandbox.close()
})

const headers = { authorization: 'Bearer sandbox-enterprise' }
const probe = (on: Page, url: string) =>
  on.evaluate(
    `(${probeFetch.toString()})(${JSON.stringify(url)}, ${JSON.stringify({ headers })})`,
  ) as Promise<FetchProbe>
// What an XHR sees: the event it ends with and its status.
const xhr = (on: Page, url: string) =>
  on.evaluate(
    ([target, key]) =>
      new Promise<{ event: string; status: number }>((resolve) => {
        const request = new XMLHttpRequest()
        request.open('GET', target)
        request.setRequestHeader('authorization', key)
        for (const event of ['load', 'error', 'abort', 'timeout'])
          request.addEventListener(event, () => resolve({ event, status: request.status }))
        request.send()
      }),
    [url, headers.authorization] as const,
  )

describe.each([
  { name: 'the standalone server', on: () => page, base: () => api },
  { name: 'Playwright (page.route)', on: () => routed, base: () => 'https://api.example.test/v1' },
])('proxy-error to a cross-origin page through $name', (runtime) => {
  it('the same page reads an ordinary answer (CORS works)', async () => {
    expect(await probe(runtime.on(), `${runtime.base()}/pets`)).toMatchObject({ status: 200 })
  })

  it("fetch rejects with a TypeError (a network error), as against a stock gateway's 502", async () => {
    expect(await probe(runtime.on(), `${runtime.base()}/pets?__scenario=proxy-error`)).toEqual({
      rejected: 'TypeError',
      headMs: expect.any(Number),
    })
  })

  it('XHR fires error with status 0', async () => {
    expect(await xhr(runtime.on(), `${runtime.base()}/pets?__scenario=proxy-error`)).toEqual({
      event: 'error',
      status: 0,
    })
  })

  it('__cors=keep keeps the CORS headers: the page reads the 502 and its HTML', async () => {
    expect(
      await probe(runtime.on(), `${runtime.base()}/pets?__scenario=proxy-error&__cors=keep`),
    ).toMatchObject({
      status: 502,
      contentType: 'text/html; charset=utf-8',
      text: PROXY_ERROR_PAGE,
    })
  })
})

describe('proxy-error on the wire', () => {
  const get = (query: string, scenario = 'proxy-error') =>
    rawExchange(
      api.replace(/\/v1$/, ''),
      requestText('GET', `/v1/pets?__scenario=${scenario}${query}`).replace(
        '\r\n\r\n',
        '\r\nOrigin: http://app.example\r\n\r\n',
      ),
    )
  const cors = (seen: { headers: Record<string, string> }) =>
    Object.keys(seen.headers).filter((name) => name.startsWith('access-control-'))

  it('has no CORS header by default, the sandbox’s own answers do', async () => {
    const seen = await get('')
    expect(seen.status).toBe(502)
    expect(cors(seen)).toEqual([])
    expect(cors(await get('', 'default'))).toContain('access-control-allow-origin')
  })

  it('keeps them with __cors=keep, and __cors=none is the default said aloud', async () => {
    expect(cors(await get('&__cors=keep'))).toContain('access-control-allow-origin')
    expect(cors(await get('&__cors=none'))).toEqual([])
  })

  it.each([['KEEP'], ['yes'], [''], ['keep&__cors=keep']])(
    '__cors=%s is 400 invalid_parameter naming __cors',
    async (value) => {
      const seen = await get(`&__cors=${value}`)
      expect(seen.status).toBe(400)
      expect(JSON.parse(seen.body.toString())).toMatchObject({
        code: 'invalid_parameter',
        details: [{ field: '__cors' }],
      })
    },
  )
})
