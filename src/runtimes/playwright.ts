import { answerWithOwnHandlers } from '../handlers/answer-with-own-handlers.js'
import { checkOwnHandlers, type OwnHandler } from '../handlers/check-own-handlers.js'
import type { SandboxRequest, TransportFault } from '../http/types.js'
import { belowBasePath } from '../pipeline/locate.js'
import { checkOptionNames } from '../sandbox/check-option-names.js'
import { createSandboxCore, type SandboxCore } from '../sandbox/create-sandbox-core.js'
import { SANDBOX_OPTION_NAMES, type SandboxOptions } from '../sandbox/sandbox-options.js'
import { crossOriginHeaders } from './cross-origin-headers.js'

/**
 * The parts of Playwright's `Route` and `Request` the sandbox uses. Written
 * structurally so that pages from `playwright`, `playwright-core` and
 * `@playwright/test` all fit, without depending on any of them.
 */
export interface RouteLike {
  request(): {
    method(): string
    url(): string
    allHeaders(): Promise<Record<string, string>>
    postDataBuffer(): Uint8Array | null
  }
  fulfill(response: {
    status: number
    headers: Record<string, string>
    body: string
  }): Promise<void>
  abort(errorCode?: string): Promise<void>
  fallback(): Promise<void>
}

type UrlMatcher = (url: URL) => boolean

/** A Playwright `Page` or `BrowserContext`: anything with `route` and `unroute`. */
export interface RouteTarget {
  route(url: UrlMatcher, handler: (route: RouteLike) => Promise<void>): Promise<unknown>
  unroute(url: UrlMatcher, handler?: (route: RouteLike) => Promise<void>): Promise<unknown>
}

export interface PlaywrightSandboxOptions<S extends string = never> extends SandboxOptions<S> {
  /**
   * Your own handlers (MSW handlers or functions `(request) => Response | undefined`)
   * for any URL the page requests that the contract does not define, under
   * the base path and outside it (msw is loaded only when you pass MSW handlers).
   */
  handlers?: readonly OwnHandler[]
}

export const PLAYWRIGHT_OPTION_NAMES = [
  ...SANDBOX_OPTION_NAMES,
  'handlers',
] as const satisfies readonly (keyof PlaywrightSandboxOptions)[]

/** A sandbox answering a Playwright page's (or context's) requests from the test process. */
export interface PlaywrightSandbox<S extends string = never> extends SandboxCore<S> {
  /** Stops routing; the page's requests go to the network again. */
  uninstall(): Promise<void>
}

// Playwright's abort codes for the core's transport faults.
const ABORT_CODES: Readonly<Record<TransportFault, string>> = {
  'network-error': 'failed',
  timeout: 'timedout',
}

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

const toFetchRequest = (request: SandboxRequest): Request =>
  new Request(request.url, {
    method: request.method,
    headers: Object.entries(request.headers).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
    body:
      request.method === 'GET' || request.method === 'HEAD' || request.body === null
        ? null
        : new Uint8Array(request.body),
  })

/**
 * Offers a request the sandbox does not answer to the user's own handlers,
 * and fulfils (or aborts, for `Response.error()`) the route with their
 * answer. Resolves false when none answers.
 */
const fulfilWithOwnHandlers = async (
  route: RouteLike,
  handlers: readonly OwnHandler[],
  request: SandboxRequest,
  origin: string | undefined,
): Promise<boolean> => {
  const response = await answerWithOwnHandlers(handlers, toFetchRequest(request))
  if (response === undefined) return false
  if (response.type === 'error') {
    await route.abort('failed')
    return true
  }
  await route.fulfill({
    status: response.status,
    headers: {
      ...Object.fromEntries(response.headers),
      ...crossOriginHeaders({ origin, url: request.url }),
    },
    body: await response.text(),
  })
  return true
}

/**
 * Gives a Playwright page (or a whole browser context) the sandbox at the
 * network layer, without a service worker: requests to the API are routed
 * into the sandbox, which answers them in the test process. Returns the
 * sandbox, so the test holds the controls. Cross-origin requests get the CORS
 * headers the standalone server would send.
 *
 * Your own handlers: the `handlers` option (MSW handlers or plain functions)
 * answers any URL the page requests that the contract does not define, under
 * the base path and outside it; a `page.route()` you add after
 * `installSandbox` runs first for any path (Playwright runs the newest route
 * first) and can `route.fallback()` to the sandbox.
 *
 * @example
 * const sandbox = await installSandbox(page, { baseUrl: 'https://api.example.test/v1' })
 * sandbox.scenario.set('unavailable')
 * await page.goto('http://localhost:5173/')
 */
export const installSandbox = async <const S extends string = never>(
  target: RouteTarget,
  options: PlaywrightSandboxOptions<S> = {},
): Promise<PlaywrightSandbox<S>> => {
  checkOptionNames(options, PLAYWRIGHT_OPTION_NAMES, 'install the sandbox')
  const { handlers, ...coreOptions } = Object(options) as PlaywrightSandboxOptions<S>
  const own = checkOwnHandlers(handlers, 'install the sandbox')
  const sandbox = createSandboxCore(
    typeof options === 'object' && options !== null ? coreOptions : options,
  )
  const inApi: UrlMatcher = (candidate) =>
    (sandbox.origin === undefined || candidate.origin === sandbox.origin) &&
    belowBasePath(candidate.pathname, sandbox.basePath) !== undefined
  // With handlers of your own, every URL the page requests is offered to them
  // (the order rule of every runtime); without, only the API's are routed.
  const matches: UrlMatcher = own.length === 0 ? inApi : () => true

  const handler = async (route: RouteLike): Promise<void> => {
    const request = route.request()
    const url = request.url()
    const method = request.method()
    const headers = await request.allHeaders()
    const origin = headers.origin
    if (!inApi(new URL(url))) {
      const body = request.postDataBuffer()
      const outside = { method, url, headers, body: body === null ? null : new Uint8Array(body) }
      if (!(await fulfilWithOwnHandlers(route, own, outside, origin))) await route.fallback()
      return
    }
    if (method === 'OPTIONS' && headers['access-control-request-method'] !== undefined) {
      // A CORS preflight: answered like the standalone server does, without key or quota.
      await route.fulfill({
        status: 204,
        headers: crossOriginHeaders({ origin, url, preflight: true }),
        body: '',
      })
      return
    }
    const body = request.postDataBuffer()
    const sandboxRequest = {
      method,
      url,
      headers,
      body: body === null ? null : new Uint8Array(body),
    }
    let response = await sandbox.handle(sandboxRequest, { passUnknownRoutes: own.length > 0 })
    if (response === null && own.length > 0) {
      // A path the contract does not define: the user's handlers first, then the sandbox's 404.
      if (await fulfilWithOwnHandlers(route, own, sandboxRequest, origin)) return
      response = await sandbox.handle(sandboxRequest)
    }
    if (response === null) {
      await route.fallback()
      return
    }
    if (response.delayMs !== undefined && response.delayMs > 0) await wait(response.delayMs)
    if (response.fault !== undefined) {
      await route.abort(ABORT_CODES[response.fault])
      return
    }
    await route.fulfill({
      status: response.status,
      headers: { ...response.headers, ...crossOriginHeaders({ origin, url }) },
      // HEAD: the same status and headers as GET, never a body (contract §15).
      body: method === 'HEAD' ? '' : (response.body ?? ''),
    })
  }

  await target.route(matches, handler)
  return Object.assign(sandbox, {
    uninstall: async () => {
      await target.unroute(matches, handler)
    },
  })
}

export * from '../core-api.js'
