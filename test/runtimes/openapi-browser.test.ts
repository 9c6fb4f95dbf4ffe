import { readFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { type StaticServer, serveStatic } from '../../examples/app/serve-static.js'
import type { ConformanceTarget, WireResponse } from '../conformance/parts/target.js'
import { createPlaywrightTarget } from '../conformance/targets/playwright-target.js'
import { createWorkerTarget } from '../conformance/targets/worker-target.js'
import { buildSandboxPage } from '../support/browser/build-sandbox-page.js'
import { launchChromium } from '../support/browser/launch-chromium.js'

// The `openapi` option (contract §20, issue 29) in real Chromium: the document given as an
// object, through MSW's service worker (the page fetches extras.json and passes it to
// startSandbox) and through Playwright's page.route (installSandbox in this process).
const document = parse(readFileSync('examples/openapi/petstore-extras.yaml', 'utf8')) as Record<
  string,
  unknown
>

let root: string
let server: StaticServer
let browser: Browser
let workerPage: Page
let worker: ConformanceTarget
let routed: ConformanceTarget

beforeAll(async () => {
  root = await buildSandboxPage()
  server = await serveStatic({ root })
  browser = await launchChromium()
  workerPage = await browser.newPage()
  await workerPage.goto(`${server.origin}/?openapi`)
  await workerPage.waitForSelector('body[data-ready="true"]', { state: 'attached' })
  worker = createWorkerTarget(() => workerPage, server.origin)
  routed = await createPlaywrightTarget(await browser.newPage(), { openapi: document, seed: 7 })
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
  if (root !== undefined) await rm(root, { recursive: true, force: true })
})

const json = (response: WireResponse): unknown => JSON.parse(response.body)
const FREE = { authorization: 'Bearer sandbox-free' }

describe.each([
  { name: 'the browser (setupWorker)', target: () => worker },
  { name: 'Playwright (page.route)', target: () => routed },
])('operations from an OpenAPI document in $name', ({ target }) => {
  const send = (
    path: string,
    init: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ) =>
    target().send({
      method: init.method ?? 'GET',
      path,
      headers: init.headers ?? FREE,
      ...(init.body === undefined ? {} : { body: init.body }),
    })

  beforeEach(async () => {
    await target().controls.reset()
  })

  it('lists the categories with a key, with the rate-limit headers, the same after a reset', async () => {
    const first = await send('/categories?limit=3')
    expect(first.status).toBe(200)
    expect(first.headers['x-ratelimit-limit']).toBe('60')
    const categories = json(first) as { id: number; name: string }[]
    expect(categories).toHaveLength(3)
    expect(categories.map((c) => c.id)).toEqual([1, 2, 3])
    for (const category of categories) expect(typeof category.name).toBe('string')
    await target().controls.reset()
    expect(json(await send('/categories?limit=3'))).toEqual(categories)
  })

  it('answers 401 without a key, with the contract’s Error body', async () => {
    const answer = await send('/categories', { headers: {} })
    expect(answer.status).toBe(401)
    expect(json(answer)).toMatchObject({ code: 'missing_api_key', status: 401 })
    expect(answer.headers['www-authenticate']).toBe('Bearer realm="petstore"')
  })

  it('applies a scenario: sticky unavailable, and one request’s ?__scenario=server-error', async () => {
    expect((await send('/store/inventory?__scenario=server-error')).status).toBe(500)
    await target().controls.setScenario('unavailable')
    const answer = await send('/categories')
    expect([answer.status, (json(answer) as { code: string }).code]).toEqual([
      503,
      'service_unavailable',
    ])
    await target().controls.setScenario('default')
    expect((await send('/store/inventory')).status).toBe(200)
  })

  it('validates against the document: 400 with the contract’s Error body and details', async () => {
    const answer = await send('/store/orders', {
      method: 'POST',
      headers: { ...FREE, 'content-type': 'application/json' },
      body: JSON.stringify({ petId: 0 }),
    })
    expect(answer.status).toBe(400)
    expect(json(answer)).toEqual({
      code: 'validation_failed',
      message: expect.any(String),
      status: 400,
      details: [
        { field: 'quantity', message: 'is required' },
        { field: 'petId', message: 'must be >= 1' },
      ],
    })
    const badId = await send('/categories/abc')
    expect([badId.status, (json(badId) as { code: string }).code]).toEqual([
      400,
      'invalid_parameter',
    ])
  })

  it('keeps a created order until a reset, and journals it under its operationId', async () => {
    const created = await send('/store/orders', {
      method: 'POST',
      headers: { ...FREE, 'content-type': 'application/json' },
      body: JSON.stringify({ petId: 2, quantity: 1 }),
    })
    expect(created.status).toBe(201)
    const order = json(created) as { id: number }
    expect(json(await send(`/store/orders/${order.id}`))).toEqual(order)
    expect(await target().controls.journal?.()).toEqual([
      { operation: 'placeOrder', status: 201 },
      { operation: 'getOrder', status: 200 },
    ])
    await target().controls.reset()
    expect((await send(`/store/orders/${order.id}`)).status).toBe(404)
  })
})
