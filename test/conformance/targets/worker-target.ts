import type { Page } from 'playwright-core'
import type { BrowserSandbox } from '../../../src/runtimes/browser.js'
import { sendFromPage } from '../../support/browser/send-from-page.js'
import { type ConformanceControls, type ConformanceTarget, inSession } from '../parts/target.js'

/**
 * Runs `fn(window.petstoreSandbox, arg)` in the page. `fn` travels as source
 * text, so it may use only its parameters.
 */
const onSandbox = async <A, R>(
  page: Page,
  fn: (sandbox: BrowserSandbox<string>, arg: A) => R | Promise<R>,
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
  const target: ConformanceTarget = {
    name: 'browser (msw service worker in Chromium)',
    baseUrl,
    send: (request) => sendFromPage(getPage(), baseUrl, request),
    controls: pageControls(getPage, 'default'),
    session: (id) => inSession(target, id, pageControls(getPage, id)),
  }
  return target
}

type KeyOptions = Parameters<BrowserSandbox['keys']['create']>[0]

/** The controls of one session, called inside the page: `petstoreSandbox.session(id)`. */
const pageControls = (getPage: () => Page, id: string): ConformanceControls => ({
  reset: () => onSandbox(getPage(), (s, a) => s.session(a.id).reset(), { id }),
  setClock: (time) =>
    onSandbox(getPage(), (s, a) => s.session(a.id).clock.set(a.time), { id, time }),
  advanceClock: (ms) =>
    onSandbox(getPage(), (s, a) => s.session(a.id).clock.advance(a.ms), { id, ms }),
  createKey: (options) =>
    onSandbox(getPage(), (s, a) => s.session(a.id).keys.create(a.options as KeyOptions).key, {
      id,
      options,
    }),
  revokeKey: async (key) => {
    await onSandbox(getPage(), (s, a) => s.session(a.id).keys.revoke(a.key), { id, key })
  },
  setScenario: (name) =>
    onSandbox(getPage(), (s, a) => s.session(a.id).scenario.set(a.name), { id, name }),
  journal: () =>
    onSandbox(
      getPage(),
      (s, a) =>
        s
          .session(a.id)
          .journal.list()
          .map(({ operation, status }) => ({ operation, status })),
      { id },
    ),
})
