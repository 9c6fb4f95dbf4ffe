import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'
import { createSandboxServer, type SandboxServer } from 'petstore-sandbox/server'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium } from '../../test/support/browser/launch-chromium.js'
import { type StaticServer, serveStatic } from '../app/serve-static.js'
import { sessionFromUrl, withSession } from './session-api.js'

const HTML = new URL('./index.html', import.meta.url)

/** main.ts bundled for the browser, as your bundler would. */
const bundleApp = async (): Promise<string> => {
  const result = await build({
    entryPoints: [new URL('./main.ts', import.meta.url).pathname],
    bundle: true,
    format: 'esm',
    write: false,
    logLevel: 'silent',
  })
  return result.outputFiles[0]?.text ?? ''
}

describe('sessionFromUrl', () => {
  it.each([
    ['http://localhost:5173/?session=alice', 'alice'],
    ['http://localhost:5173/pets?x=1&session=ci-run_42.b', 'ci-run_42.b'],
    ['http://localhost:5173/', undefined],
    ['http://localhost:5173/?session=', undefined],
  ])('reads %s as %s', (href, session) => {
    expect(sessionFromUrl(href)).toBe(session)
  })

  it.each(['a b', 'x'.repeat(65), 'al/ice'])('throws for the id %j', (id) => {
    expect(() => sessionFromUrl(`http://x/?session=${encodeURIComponent(id)}`)).toThrow(
      /not 1-64 characters/,
    )
  })

  it('reads another parameter when told', () => {
    expect(sessionFromUrl('http://x/?sandbox=bob&session=alice', 'sandbox')).toBe('bob')
  })
})

describe('withSession', () => {
  const seen = (session: string | undefined, init?: RequestInit) => {
    let headers: Headers | undefined
    const fetchImpl = async (_: unknown, given?: RequestInit) => {
      headers = new Headers(given?.headers)
      return new Response(null, { status: 204 })
    }
    return withSession(session, fetchImpl as typeof fetch)('/v1/pets', init).then(() => headers)
  }

  it('adds X-Sandbox-Session and keeps the other headers', async () => {
    const headers = await seen('alice', { headers: { authorization: 'Bearer k' } })
    expect(headers?.get('x-sandbox-session')).toBe('alice')
    expect(headers?.get('authorization')).toBe('Bearer k')
  })

  it('adds nothing without a session', async () => {
    expect((await seen(undefined))?.has('x-sandbox-session')).toBe(false)
  })
})

// The app in real Chromium against the standalone server: two tabs, two sessions.
describe('the app in two tabs, ?session=alice and ?session=bob', () => {
  let server: SandboxServer
  let origin: string
  let browser: Browser

  beforeAll(async () => {
    server = createSandboxServer()
    origin = (await server.listen(0, '127.0.0.1')).url
    browser = await launchChromium()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    await appServer?.close()
    if (appRoot !== undefined) await rm(appRoot, { recursive: true, force: true })
  })

  // The app on its own origin, a static file server on loopback (what a dev server is).
  let appServer: StaticServer | undefined
  let appRoot: string | undefined
  const serveApp = async (): Promise<string> => {
    appRoot = await mkdtemp(join(tmpdir(), 'petstore-session-app-'))
    await writeFile(join(appRoot, 'index.html'), await readFile(HTML, 'utf8'))
    await writeFile(join(appRoot, 'main.js'), await bundleApp())
    appServer = await serveStatic({ root: appRoot })
    return appServer.origin
  }

  /** Opens the app, served under /app/ on the sandbox's own origin (routed: no file server needed). */
  const openApp = async (query: string): Promise<Page> => {
    const script = await bundleApp()
    const html = await readFile(HTML, 'utf8')
    const page = await browser.newPage()
    await page.route(`${origin}/app/**`, (route) => {
      const isScript = new URL(route.request().url()).pathname.endsWith('.js')
      return route.fulfill(
        isScript
          ? { contentType: 'text/javascript', body: script }
          : { contentType: 'text/html', body: html },
      )
    })
    await page.goto(`${origin}/app/${query}`)
    await page.waitForSelector('body[data-total]', { state: 'attached' })
    return page
  }
  const total = (page: Page) => page.evaluate(() => document.body.dataset.total)
  const names = (page: Page) => page.locator('#pets li').allTextContents()

  it('keeps each tab in its own session, and default untouched', async () => {
    const alice = await openApp('?session=alice')
    const bob = await openApp('?session=bob')
    expect(await alice.textContent('#session')).toBe('alice')
    expect([await total(alice), await total(bob)]).toEqual(['25', '25'])

    await alice.click('#add')
    await alice.waitForFunction(() => document.body.dataset.total === '26')
    expect((await names(alice)).at(-1)).toBe("alice's pet")

    await bob.reload()
    await bob.waitForSelector('body[data-total]', { state: 'attached' })
    expect(await total(bob)).toBe('25')
    expect(await names(bob)).not.toContain("alice's pet")

    const sessions = (await (await fetch(`${origin}/__sandbox/sessions`)).json()) as {
      id: string
      pets: number
    }[]
    expect(Object.fromEntries(sessions.map((s) => [s.id, s.pets]))).toEqual({
      default: 25,
      alice: 26,
      bob: 25,
    })
  })

  it('works from another origin: the server allows X-Sandbox-Session in CORS', async () => {
    const carol = await browser.newPage()
    await carol.goto(`${await serveApp()}/?session=carol&api=${origin}/v1`)
    await carol.waitForSelector('body[data-total]', { state: 'attached' })
    expect(await total(carol)).toBe('25')
    await carol.click('#add')
    await carol.waitForFunction(() => document.body.dataset.total === '26')
    const sessions = (await (await fetch(`${origin}/__sandbox/sessions`)).json()) as {
      id: string
      pets: number
    }[]
    expect(sessions.find((s) => s.id === 'carol')?.pets).toBe(26)
  })
})
