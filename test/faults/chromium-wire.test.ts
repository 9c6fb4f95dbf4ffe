import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandboxServer } from '../../src/server/index.js'
import { launchChromium } from '../support/browser/launch-chromium.js'
import { type FetchProbe, probeFetch } from './probe-fetch.js'

// docs/scenarios.md's fault table, Chromium's columns (issue 37): every fault of the standalone
// server as a page of another origin sees it with fetch and with XHR, and the reason Chromium
// gives (DevTools' `requestfailed`), which tells a reset from a clean close.
const sandbox = createSandboxServer({ maxHoldMs: 2_000 })
let api = ''
let appServer: Server
let browser: Browser
let page: Page
const failures = new Map<string, string>()

beforeAll(async () => {
  api = `${(await sandbox.listen(0, '127.0.0.1')).url}/v1`
  appServer = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' })
    res.end('<!doctype html><title>app</title>')
  })
  await new Promise<void>((resolve) => appServer.listen(0, '127.0.0.1', resolve))
  browser = await launchChromium()
  page = await browser.newPage()
  page.on('requestfailed', (request) => {
    if (request.method() !== 'OPTIONS')
      failures.set(request.url(), request.failure()?.errorText ?? '')
  })
  await page.goto(`http://127.0.0.1:${(appServer.address() as AddressInfo).port}/`)
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await new Promise((resolve) => appServer?.close(resolve))
  await sandbox.close()
})

const authorization = 'Bearer sandbox-enterprise'

/** What fetch saw, then the reason Chromium gave when the request failed (`-` when it did not). */
const viaFetch = async (url: string) => {
  failures.delete(url)
  const seen = (await page.evaluate(
    `(${probeFetch.toString()})(${JSON.stringify(url)}, ${JSON.stringify({ headers: { authorization } })})`,
  )) as FetchProbe
  const outcome =
    seen.rejected !== undefined
      ? `rejects ${seen.rejected}`
      : `${seen.status}, ${seen.bodyError === undefined ? 'read' : `reading throws ${seen.bodyError}`}`
  if (seen.rejected === undefined && seen.bodyError === undefined) return `${outcome} (-)`
  await expect.poll(() => failures.has(url)).toBe(true)
  return `${outcome} (${failures.get(url)})`
}

const viaXhr = (url: string) =>
  page.evaluate(
    ([target, key]) =>
      new Promise<string>((resolve) => {
        const request = new XMLHttpRequest()
        request.open('GET', target)
        request.setRequestHeader('authorization', key)
        for (const event of ['load', 'error', 'abort', 'timeout'])
          request.addEventListener(event, () => resolve(`${event} ${request.status}`))
        request.send()
      }),
    [url, authorization] as const,
  )

const TABLE: Record<string, { fetch: string; xhr: string }> = {
  'network-error': { fetch: 'rejects TypeError (net::ERR_EMPTY_RESPONSE)', xhr: 'error 0' },
  'timeout&__delay=50': { fetch: 'rejects TypeError (net::ERR_EMPTY_RESPONSE)', xhr: 'error 0' },
  'empty-response': { fetch: 'rejects TypeError (net::ERR_EMPTY_RESPONSE)', xhr: 'error 0' },
  'commit-then-drop': { fetch: 'rejects TypeError (net::ERR_EMPTY_RESPONSE)', xhr: 'error 0' },
  'commit-then-drop&__drop=reset': {
    fetch: 'rejects TypeError (net::ERR_CONNECTION_RESET)',
    xhr: 'error 0',
  },
  'reset-mid-body': {
    fetch: '200, reading throws TypeError (net::ERR_CONNECTION_RESET)',
    xhr: 'error 0',
  },
  'truncated-body': {
    fetch: '200, reading throws TypeError (net::ERR_CONTENT_LENGTH_MISMATCH)',
    xhr: 'error 0',
  },
  'stall-after-headers&__delay=50': {
    fetch: '200, reading throws TypeError (net::ERR_CONTENT_LENGTH_MISMATCH)',
    xhr: 'error 0',
  },
  'slow-body&__bandwidth=100000': { fetch: '200, read (-)', xhr: 'load 200' },
  'malformed-json': { fetch: '200, read (-)', xhr: 'load 200' },
  'proxy-error': { fetch: 'rejects TypeError (net::ERR_FAILED)', xhr: 'error 0' },
  'proxy-error&__cors=keep': { fetch: '502, read (-)', xhr: 'load 502' },
}

describe('each fault of the standalone server in Chromium, from a page of another origin', () => {
  it.each(Object.keys(TABLE))('%s', async (fault) => {
    const url = `${api}/pets?__scenario=${fault}`
    expect({ fetch: await viaFetch(url), xhr: await viaXhr(url) }).toEqual(TABLE[fault])
  })
})
