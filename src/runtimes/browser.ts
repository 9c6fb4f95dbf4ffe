import { type SetupWorker, setupWorker } from 'msw/browser'
import {
  type PersistOptions,
  persistSandbox,
  type SandboxPersistence,
} from '../extensions/persist.js'
import {
  type CreateSandboxOptions,
  createSandbox,
  type Sandbox,
} from '../handlers/create-sandbox.js'

export interface BrowserSandboxOptions extends CreateSandboxOptions {
  /** Where the worker script is served (default `/mockServiceWorker.js`, from `npx msw init public/ --save`). */
  serviceWorker?: { url?: string; options?: RegistrationOptions }
  /** What MSW does with requests no handler answers (default `bypass`: the page's own files load as usual). */
  onUnhandledRequest?: 'bypass' | 'warn' | 'error'
  /** Silence MSW's console log of every intercepted request (default false). */
  quiet?: boolean
  /**
   * Keep the pets, run-time keys and sticky scenario across page reloads, in
   * localStorage (default false). `reset()` wipes what was kept.
   */
  persist?: boolean | PersistOptions
  /** The `window` property that holds the controls, for the console (default `petstoreSandbox`); false for none. */
  exposeAs?: string | false
  /**
   * The query parameter of the page's own URL that picks the sticky scenario
   * (default `__scenario`: open `/?__scenario=empty`); false to ignore the URL.
   */
  scenarioParam?: string | false
}

/** A sandbox answering the page's requests through MSW's service worker. */
export interface BrowserSandbox extends Sandbox {
  readonly worker: SetupWorker
  /** Set when `persist` is on: the storage entry, and `wipe()` to forget it. */
  readonly persistence: SandboxPersistence | undefined
  /** Stops intercepting; the page's requests go to the network again. */
  stop(): void
}

declare global {
  interface Window {
    /** The petstore-sandbox controls, when `startSandbox` exposed them. */
    petstoreSandbox?: BrowserSandbox
  }
}

const scenarioFromUrl = (param: string): string | undefined => {
  const value = new URL(globalThis.location.href).searchParams.get(param)?.trim()
  return value === undefined || value === '' ? undefined : value
}

/**
 * Starts the sandbox in the browser: MSW's service worker intercepts the
 * page's requests to the API and the sandbox answers them in the page. Await
 * it before the app renders, so that its first requests are answered.
 *
 * @example
 * const sandbox = await startSandbox({ persist: true })
 * sandbox.scenario.set('rate-limited') // or, in the console: petstoreSandbox.scenario.set('empty')
 */
export const startSandbox = async (
  options: BrowserSandboxOptions = {},
): Promise<BrowserSandbox> => {
  const {
    serviceWorker,
    onUnhandledRequest = 'bypass',
    quiet = false,
    persist = false,
    exposeAs = 'petstoreSandbox',
    scenarioParam = '__scenario',
    ...sandboxOptions
  } = options
  const sandbox = createSandbox(sandboxOptions)
  const worker = setupWorker(...sandbox.handlers)
  // Resetting the default session also drops handlers added with worker.use().
  sandbox.events.on('reset', ({ session }) => {
    if (session === 'default') worker.resetHandlers()
  })
  const persistence =
    persist === false ? undefined : await persistSandbox(sandbox, persist === true ? {} : persist)
  const browserSandbox: BrowserSandbox = Object.assign(sandbox, {
    worker,
    stop: () => worker.stop(),
    persistence,
  })

  const urlScenario = scenarioParam === false ? undefined : scenarioFromUrl(scenarioParam)
  if (urlScenario !== undefined) {
    try {
      browserSandbox.scenario.set(urlScenario)
    } catch (error) {
      // The page should still render: say why the flag did nothing, in one line without a stack.
      const reason = error instanceof Error ? error.message : String(error)
      console.warn(`[petstore-sandbox] ?${scenarioParam}=${urlScenario} ignored: ${reason}`)
    }
  }

  await worker.start({
    serviceWorker: { url: '/mockServiceWorker.js', ...serviceWorker },
    onUnhandledRequest,
    quiet,
  })
  await sandbox.ready
  if (exposeAs !== false) Object.assign(globalThis, { [exposeAs]: browserSandbox })
  return browserSandbox
}

export * from '../index.js'
