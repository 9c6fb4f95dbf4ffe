import { setupSandbox } from 'petstore-sandbox/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { PROXY_ERROR_PAGE } from '../../src/faults/proxy-error.js'
import { probeFetch } from './probe-fetch.js'

// The eight faults of contract §19 in the test runner (MSW setupServer), as a fetch client sees them.
const sandbox = setupSandbox()
beforeAll(() => sandbox.listen())
afterEach(() => sandbox.reset())
afterAll(() => sandbox.close())

const API = 'https://api.example.test/v1'
const headers = { authorization: 'Bearer sandbox-enterprise' }
const get = (query: string) => probeFetch(`${API}/pets?${query}`, { headers })
const parses = (text: string | undefined) => {
  try {
    JSON.parse(text ?? '')
    return true
  } catch {
    return false
  }
}

describe('faults inside an answer in the test runner (MSW in Node)', () => {
  it.each(['reset-mid-body', 'truncated-body'])(
    '%s: the head arrives (the whole Content-Length), reading the body throws a TypeError',
    async (scenario) => {
      const whole = await get('')
      const seen = await get(`__scenario=${scenario}`)
      expect(seen).toMatchObject({ status: 200, bodyError: 'TypeError', rateLimited: true })
      expect(seen.contentLength).toBe(String(new TextEncoder().encode(whole.text).byteLength))
      expect(sandbox.journal.list().at(-1)).toMatchObject({ fault: scenario, delivered: false })
    },
  )

  it('stall-after-headers: the head arrives, then reading the body throws after __delay', async () => {
    const seen = await get('__scenario=stall-after-headers&__delay=0')
    expect(seen).toMatchObject({ status: 200, bodyError: 'TypeError' })
  })

  it('slow-body: the whole answer, its body read to the end', async () => {
    const whole = await get('')
    const seen = await get('__scenario=slow-body&__bandwidth=10000000')
    expect(seen).toMatchObject({ status: 200, text: whole.text })
  })

  it('slow-body: a bad __bandwidth is 400 invalid_parameter', async () => {
    const seen = await get('__scenario=slow-body&__bandwidth=0')
    expect(seen.status).toBe(400)
    expect(JSON.parse(seen.text ?? '')).toMatchObject({ details: [{ field: '__bandwidth' }] })
  })

  it('malformed-json: application/json that json() cannot parse (SyntaxError)', async () => {
    const seen = await get('__scenario=malformed-json')
    expect(seen).toMatchObject({ status: 200, contentType: 'application/json' })
    expect(parses(seen.text)).toBe(false)
    const response = await fetch(`${API}/pets?__scenario=malformed-json`, { headers })
    await expect(response.json()).rejects.toThrow(SyntaxError)
  })

  it('proxy-error: 502 text/html, no rate-limit headers', async () => {
    const seen = await get('__scenario=proxy-error')
    expect(seen).toMatchObject({
      status: 502,
      contentType: 'text/html; charset=utf-8',
      rateLimited: false,
      text: PROXY_ERROR_PAGE,
    })
  })

  it('proxy-error in a page of another origin (a DOM: jsdom, setupWorker) is a failed fetch, unless __cors=keep', async () => {
    // A stock gateway's 502 has no CORS headers: a browser refuses it to a cross-origin page.
    const global = globalThis as { location?: unknown }
    global.location = { origin: 'http://app.example.test' }
    try {
      expect(await get('__scenario=proxy-error')).toMatchObject({ rejected: 'TypeError' })
      expect(await get('__scenario=proxy-error&__cors=keep')).toMatchObject({ status: 502 })
      global.location = { origin: 'https://api.example.test' }
      expect(await get('__scenario=proxy-error')).toMatchObject({ status: 502 })
    } finally {
      delete global.location
    }
  })

  it('commit-then-drop: fetch rejects with a TypeError whichever __drop', async () => {
    for (const drop of ['close', 'reset'])
      expect(await get(`__scenario=commit-then-drop&__drop=${drop}`)).toMatchObject({
        rejected: 'TypeError',
      })
  })

  it('empty-response: fetch rejects with a TypeError', async () => {
    expect(await get('__scenario=empty-response')).toMatchObject({ rejected: 'TypeError' })
  })

  it('commit-then-drop: fetch rejects, and the pet exists', async () => {
    const seen = await probeFetch(`${API}/pets?__scenario=commit-then-drop`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Dropped', categoryId: 1 }),
    })
    expect(seen).toMatchObject({ rejected: 'TypeError' })
    expect(sandbox.db.pets.list({ limit: 100 }).pets.map((p) => p.name)).toContain('Dropped')
    expect(await sandbox.requests.find({ method: 'POST' })).toMatchObject([
      { status: 201, fault: 'commit-then-drop', delivered: false },
    ])
  })

  it('a client that cancels a slow-body is journaled aborted, not delivered', async () => {
    const controller = new AbortController()
    const response = await fetch(`${API}/pets?__scenario=slow-body&__bandwidth=1`, {
      headers,
      signal: controller.signal,
    })
    expect(response.status).toBe(200)
    controller.abort()
    await expect(response.text()).rejects.toThrow()
    await expect.poll(() => sandbox.journal.list().at(-1)?.aborted).toBe(true)
    expect(sandbox.journal.list().at(-1)).toMatchObject({ fault: 'slow-body', delivered: false })
  })
})

describe('a client that gives up on a stall', () => {
  it('is journaled aborted when its signal fires during stall-after-headers', async () => {
    const controller = new AbortController()
    const response = await fetch(`${API}/pets?__scenario=stall-after-headers&__delay=30000`, {
      headers,
      signal: controller.signal,
    })
    expect(response.status).toBe(200)
    const reading = response.text()
    controller.abort()
    await expect(reading).rejects.toThrow()
    await expect.poll(() => sandbox.journal.list().at(-1)?.aborted).toBe(true)
  })
})
