import { test as base, expect } from '@playwright/test'

/**
 * A session of its own for every test: `X-Sandbox-Session` rides on every
 * request of the test's `request` fixture and of its pages (`fetch`es and
 * navigations alike), so the API and the control API (`/__sandbox/...`) both
 * act on that session only. The session is dropped once the test ends.
 *
 * @example
 * import { expect, test } from './session-fixture.js'
 * test('sees only its own scenario', async ({ request }) => {
 *   await request.put('/__sandbox/scenario', { data: { name: 'empty' } }) // this session only
 * })
 */
export const test = base.extend<{ session: string; dropSession: undefined }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
  session: async ({}, use, testInfo) => {
    // Unique per test (testId), readable per worker; 1-64 characters of [A-Za-z0-9._-].
    await use(`w${testInfo.workerIndex}-${testInfo.testId}`.slice(0, 64))
  },
  extraHTTPHeaders: async ({ extraHTTPHeaders, session }, use) => {
    await use({ ...extraHTTPHeaders, 'X-Sandbox-Session': session })
  },
  // Drops the session after the test (optional: idle sessions expire by themselves).
  dropSession: [
    async ({ request, session }, use) => {
      await use(undefined)
      const dropped = await request.delete(`/__sandbox/sessions/${session}`)
      expect(dropped.status()).toBe(204)
    },
    { auto: true },
  ],
})

export { expect }
