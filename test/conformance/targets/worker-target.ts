import type { Page } from 'playwright-core'
import type { BrowserSandbox } from '../../../src/runtimes/browser.js'
import { sendFromPage } from '../../support/browser/send-from-page.js'
import type { ConformanceTarget } from '../parts/target.js'

/**
 * Runs `fn(window.petstoreSandbox, arg)` in the page. `fn` travels as source
 * text, so it may use only its parameters.
 */
const onSandbox = async <A, R>(
  page: Page,
  fn: (sandbox: BrowserSandbox, arg: A) => R | Promise<R>,
  arg: A,
): Promise<R> =>
  page.evaluate(
    `(async () => {
      const sandbox = window.petstoreSandbox
      if (sandbox === undefined) throw new Error('window.petstoreSandbox is missing: the page did not start the sandbox.')
      return (${fn.toString()})(sandbox, ${JSON.stringify(arg) ?? 'undefined'})
    })()`,
  ) as Promise<R>

/**
 * The browser sandbox as the conformance suite sees it: requests are `fetch`es
 * inside a real page, answered by MSW's service worker; the controls are
 * `window.petstoreSandbox`, driven through `page.evaluate`.
 *
 * @example
 * const target = createWorkerTarget(() => page, server.origin)
 * defineConformanceSuite(() => target)
 */
export const createWorkerTarget = (getPage: () => Page, origin: string): ConformanceTarget => {
  const baseUrl = `${origin}/v1`
  return {
    name: 'browser (msw service worker in Chromium)',
    baseUrl,
    send: (request) => sendFromPage(getPage(), baseUrl, request),
    controls: {
      reset: () => onSandbox(getPage(), (s) => s.reset(), null),
      setClock: (time) => onSandbox(getPage(), (s, t) => s.clock.set(t), time),
      advanceClock: (ms) => onSandbox(getPage(), (s, m) => s.clock.advance(m), ms),
      createKey: (options) =>
        onSandbox(
          getPage(),
          (s, o) => s.keys.create(o as Parameters<BrowserSandbox['keys']['create']>[0]).key,
          options,
        ),
      revokeKey: async (key) => {
        await onSandbox(getPage(), (s, k) => s.keys.revoke(k), key)
      },
      setScenario: (name) => onSandbox(getPage(), (s, n) => s.scenario.set(n), name),
    },
  }
}
