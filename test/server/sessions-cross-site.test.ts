import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandboxServer, type SandboxServer } from '../../src/server/index.js'
import { launchChromium } from '../support/browser/launch-chromium.js'

// Issue 24 point 2, in a real browser: a page on another site fires keyless `no-cors` GETs
// (and image loads) that name new sessions. They are answered 401 in `default` and open no
// session, so the user's session, with its key and pets, is never evicted.
let browser: Browser
let sandbox: SandboxServer
let attacker: Server
let sandboxUrl = ''
let attackerUrl = ''

beforeAll(async () => {
  sandbox = createSandboxServer({ maxSessions: 5, onError: () => {} })
  sandboxUrl = (await sandbox.listen(0, '127.0.0.1')).url
  // Another site: `localhost` is not the same site as `127.0.0.1`.
  attacker = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' })
    res.end('<!doctype html><title>elsewhere</title><p>nothing to see</p>')
  })
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve))
  attackerUrl = `http://localhost:${(attacker.address() as AddressInfo).port}`
  browser = await launchChromium()
}, 90_000)

afterAll(async () => {
  await browser?.close()
  await sandbox?.close()
  await new Promise((resolve) => attacker?.close(resolve))
})

describe('a cross-site page against the sessions', () => {
  it('opens no session and evicts none with keyless no-cors GETs and image loads', async () => {
    const created = await fetch(`${sandboxUrl}/v1/pets?__session=user`, {
      method: 'POST',
      headers: { authorization: 'Bearer sandbox-pro', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Mine', categoryId: 1 }),
    })
    expect(created.status).toBe(201)
    const key = await sandbox.sandbox.keys.create({ plan: 'pro', session: 'user' })

    const page = await browser.newPage()
    await page.goto(attackerUrl)
    const sent = await page.evaluate(async (target) => {
      let answered = 0
      for (let i = 0; i < 60; i++) {
        // An Authorization header cannot travel in no-cors mode: the browser drops it.
        await fetch(`${target}/v1/pets?__session=cross-${i}`, {
          mode: 'no-cors',
          headers: { authorization: 'Bearer sandbox-free' },
        })
        answered++
        await new Promise<void>((resolve) => {
          const image = new Image()
          image.onload = image.onerror = () => resolve()
          image.src = `${target}/v1/pets?__session=image-${i}`
        })
        answered++
      }
      return answered
    }, sandboxUrl)
    await page.close()
    expect(sent).toBe(120)

    expect(sandbox.sandbox.sessions.list().map((s) => s.id)).toEqual(['default', 'user'])
    // 401, then 429 once the address's one anonymous bucket (in `default`) is spent.
    const refused = sandbox.sandbox.journal
      .list()
      .filter((entry) => entry.url.includes('__session='))
    expect(refused).toHaveLength(120)
    expect(new Set(refused.map((entry) => entry.status))).toEqual(new Set([401, 429]))
    expect(refused.every((entry) => entry.session === 'default')).toBe(true)
    const mine = await fetch(`${sandboxUrl}/v1/pets?limit=100`, {
      headers: { authorization: `Bearer ${key.key}` },
    })
    expect(mine.status).toBe(200)
    expect(JSON.stringify(await mine.json())).toContain('"Mine"')
  }, 60_000)
})
