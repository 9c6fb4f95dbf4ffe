import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium } from '../../support/browser/launch-chromium.js'
import {
  bundlePortal,
  makeKeyInPortal,
  openPortalPage,
  rollInPortal,
  seeInPortalLog,
  shootPortal,
  signedInView,
  signUpInPortal,
  WAIT,
} from '../../support/browser/portal-page.js'
import { startTestCluster, type TestCluster } from '../../support/redis-cluster.js'
import { startTestRedis, type TestRedis } from '../../support/redis-server.js'
import { api, startAccountsServer } from './account-helpers.js'

// Issue 36's "done when": the portal walk of portal-browser.test.ts in Debian's Chromium on
// the other ways to run accounts (contract §22). With `--data`: sign up, make a key, call the
// API, see it in the page's log, restart on the same file, still signed in, the key still
// works, roll it, the old one is refused. On one Redis and on a Redis Cluster, two instances:
// the page on A makes the key, the API is called through B, the request shows in the page on
// A and on B (the log-in is shared), a roll in the page is refused by both at once, and a
// sign-out on A signs the page on B out.
// Screenshots: test-results/portal/<mode>-*.png. One browser for the file; a context per mode.

type Instance = Awaited<ReturnType<typeof startAccountsServer>>

const PASSWORD = 'a portal passphrase 36'
let browser: Browser
const problems: string[] = []

beforeAll(async () => {
  await Promise.all([
    bundlePortal(),
    launchChromium().then((launched) => {
      browser = launched
    }),
  ])
}, 90_000)
afterAll(async () => {
  await browser?.close()
  expect(problems).toEqual([])
})

/** The API through `origin` with `key`: its status. */
const status = async (origin: string, key: string, path = '/v1/pets'): Promise<number> =>
  (await api(origin, key, path)).status

describe('the portal on one instance with --data, across a restart', () => {
  let dir: string
  let first: Instance | undefined
  let second: Instance | undefined
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'portal-data-'))
  })
  afterAll(async () => {
    await first?.close()
    await second?.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('keeps the account, the key and the log-in across a restart; a roll then refuses the old key', async () => {
    const file = join(dir, 'portal.json')
    first = await startAccountsServer({ dataFile: file })
    const page = await openPortalPage(browser, problems)
    await signUpInPortal(page, first.origin, 'data@example.com', PASSWORD)
    const key = await makeKeyInPortal(page, 'Kept', 'pro')
    expect(await status(first.origin, key, '/v1/pets?limit=2')).toBe(200)
    expect(await seeInPortalLog(page, '/v1/pets?limit=2')).toContain('Kept')
    await page.getByRole('button', { name: 'Judge 1 request', exact: true }).waitFor(WAIT)
    await shootPortal(page, 'data-before-restart')
    await first.close()
    first = undefined

    // The same file, a new process's worth of state, another port (a cookie ignores ports).
    second = await startAccountsServer({ dataFile: file })
    await page.goto(`${second.origin}/portal`)
    await signedInView(page)
    expect(await page.textContent('header')).toContain('data@example.com')
    expect(await status(second.origin, key, '/v1/pets?limit=4')).toBe(200)
    expect(await seeInPortalLog(page, '/v1/pets?limit=4')).toContain('Kept')
    const rolled = await rollInPortal(page, key)
    expect(await status(second.origin, key)).toBe(401)
    expect(await status(second.origin, rolled, '/v1/pets?limit=7')).toBe(200)
    expect(await seeInPortalLog(page, '/v1/pets?limit=7')).toContain('Kept')
    await shootPortal(page, 'data-after-restart')
  })
})

const defineSharedWalk = (
  mode: string,
  start: () => Promise<{ url: string; stop: () => Promise<void> }>,
) =>
  describe(`the portal on two instances on ${mode}`, () => {
    let store: Awaited<ReturnType<typeof start>> | undefined
    let a: Instance | undefined
    let b: Instance | undefined
    beforeAll(async () => {
      store = await start()
      ;[a, b] = await Promise.all([
        startAccountsServer({ store: store.url }),
        startAccountsServer({ store: store.url }),
      ])
    }, 90_000)
    afterAll(async () => {
      await a?.close()
      await b?.close()
      await store?.stop()
    })

    it('makes the key in the page on A, sees B’s request on A and B, and a roll refuses the old key on both', async () => {
      if (a === undefined || b === undefined) throw new Error('the instances did not start')
      const tag = mode.replace(/\W+/g, '-').toLowerCase()
      const onA = await openPortalPage(browser, problems)
      await signUpInPortal(onA, a.origin, `${tag}@example.com`, PASSWORD)
      const key = await makeKeyInPortal(onA, 'Shared', 'business')
      expect(await status(b.origin, key, '/v1/pets?limit=5')).toBe(200)
      expect(await seeInPortalLog(onA, '/v1/pets?limit=5')).toContain('Shared')

      // The page on B, in the same browser context: the log-in is shared by the store.
      const onB: Page = await openPortalPage(onA.context(), problems)
      await onB.goto(`${b.origin}/portal`)
      await signedInView(onB)
      expect(await seeInPortalLog(onB, '/v1/pets?limit=5')).toContain('Shared')

      const rolled = await rollInPortal(onA, key)
      const [oldOnA, oldOnB, newOnA, newOnB] = await Promise.all([
        status(a.origin, key),
        status(b.origin, key),
        status(a.origin, rolled),
        status(b.origin, rolled, '/v1/pets?limit=6'),
      ])
      expect({ oldOnA, oldOnB, newOnA, newOnB }).toEqual({
        oldOnA: 401,
        oldOnB: 401,
        newOnA: 200,
        newOnB: 200,
      })
      expect(await seeInPortalLog(onB, '/v1/pets?limit=6')).toContain('Shared')
      await shootPortal(onA, `${tag}-a`)
      await shootPortal(onB, `${tag}-b`)

      // Signed out on A: the log-in is gone from the store, so B signs the page out too.
      await onA.getByRole('button', { name: 'Sign out' }).click()
      await onA.getByRole('heading', { name: 'Sign in' }).waitFor(WAIT)
      await onB.reload()
      await onB.getByRole('heading', { name: 'Sign in' }).waitFor(WAIT)
    })
  })

defineSharedWalk('one Redis', async () => {
  const redis: TestRedis = await startTestRedis()
  return { url: redis.url, stop: () => redis.dispose() }
})

defineSharedWalk('a Redis Cluster', async () => {
  const cluster: TestCluster = await startTestCluster()
  return { url: cluster.url, stop: () => cluster.dispose() }
})
