import { type SetupWorker, setupWorker } from 'msw/browser'
import { loadSeedFaker } from '../db/seed-faker.js'
import { DEFAULT_PET_COUNT, DEFAULT_SEED, seedNeedsFaker } from '../db/seed-pets.js'
import {
  type PersistOptions,
  persistSandbox,
  type SandboxPersistence,
} from '../extensions/persist.js'
import {
  CREATE_SANDBOX_OPTION_NAMES,
  type CreateSandboxOptions,
  createSandbox,
  type Sandbox,
} from '../handlers/create-sandbox.js'
import { checkOptionNames } from '../sandbox/check-option-names.js'
import { PAGINATED_PET_COUNT } from '../scenarios/built-in/paginated.js'

export interface BrowserSandboxOptions<S extends string = never> extends CreateSandboxOptions<S> {
  /** Where the worker script is served (default `/mockServiceWorker.js`, from `npx msw init public/ --save`). */
  serviceWorker?: { url?: string; options?: RegistrationOptions }
  /**
   * What MSW does with requests no handler answers (default `bypass`: the
   * page's own files load as usual): `'bypass'`, `'warn'`, `'error'`, or
   * msw's callback `(request, print) => void`.
   */
  onUnhandledRequest?: NonNullable<Parameters<SetupWorker['start']>[0]>['onUnhandledRequest']
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

export const BROWSER_OPTION_NAMES = [
  ...CREATE_SANDBOX_OPTION_NAMES,
  'serviceWorker',
  'onUnhandledRequest',
  'quiet',
  'persist',
  'exposeAs',
  'scenarioParam',
] as const satisfies readonly (keyof BrowserSandboxOptions)[]

/** A sandbox answering the page's requests through MSW's service worker. */
export interface BrowserSandbox<S extends string = never> extends Sandbox<S> {
  readonly worker: SetupWorker
  /** Set when `persist` is on: the storage entry, and `wipe()` to forget it. */
  readonly persistence: SandboxPersistence | undefined
  /** Stops intercepting; the page's requests go to the network again. */
  stop(): void
}

declare global {
  interface Window {
    /** The petstore-sandbox controls, when `startSandbox` exposed them. */
    petstoreSandbox?: BrowserSandbox<string>
  }
}

const scenarioFromUrl = (param: string): string | undefined => {
  const value = new URL(globalThis.location.href).searchParams.get(param)?.trim()
  return value === undefined || value === '' ? undefined : value
}

/**
 * Whether these options seed pets the build's preset does not hold: another
 * seed, more pets, or scenarios of your own with a store (their `seededPets`
 * may ask for any count). Faker then loads before the sandbox is made, since
 * seeding is synchronous (decision 0051). Wrong types are left to the
 * option checks, which word them.
 */
const needsSeedFaker = (options: CreateSandboxOptions<string>): boolean => {
  const seed = typeof options.seed === 'number' ? options.seed : DEFAULT_SEED
  const pets = typeof options.pets === 'number' ? options.pets : DEFAULT_PET_COUNT
  const ownStores = Array.isArray(options.scenarios)
    ? options.scenarios.some((scenario) => typeof scenario?.store === 'function')
    : false
  return ownStores || seedNeedsFaker(seed, Math.max(pets, PAGINATED_PET_COUNT))
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
export const startSandbox = async <const S extends string = never>(
  options: BrowserSandboxOptions<S> = {},
): Promise<BrowserSandbox<S>> => {
  checkOptionNames(options, BROWSER_OPTION_NAMES, 'start the sandbox')
  const {
    serviceWorker,
    onUnhandledRequest = 'bypass',
    quiet = false,
    persist = false,
    exposeAs = 'petstoreSandbox',
    scenarioParam = '__scenario',
    ...sandboxOptions
  } = options
  if (needsSeedFaker(sandboxOptions)) await loadSeedFaker()
  const sandbox = createSandbox(sandboxOptions)
  const worker = setupWorker(...sandbox.handlers)
  // Resetting the default session also drops handlers added with worker.use().
  sandbox.events.on('reset', ({ session }) => {
    if (session === 'default') worker.resetHandlers()
  })
  const persistence =
    persist === false ? undefined : await persistSandbox(sandbox, persist === true ? {} : persist)
  const browserSandbox: BrowserSandbox<S> = Object.assign(sandbox, {
    worker,
    stop: () => worker.stop(),
    persistence,
  })

  const urlScenario = scenarioParam === false ? undefined : scenarioFromUrl(scenarioParam)
  if (urlScenario !== undefined) {
    try {
      // A name from the URL is checked at run time; the warning below says why it did nothing.
      ;(browserSandbox as BrowserSandbox<string>).scenario.set(urlScenario)
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
