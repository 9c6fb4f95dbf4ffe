import { resolveUpstreamFiles } from '../files/resolve-upstream-files.js'
import { checkOwnHandlers, type OwnHandler } from '../handlers/check-own-handlers.js'
import { loadMswOnDemand } from '../handlers/load-msw-on-demand.js'
import { type OwnHandlerPlan, planOwnHandlers } from '../handlers/own-operations.js'
import { mergeExposeHeaders } from '../http/merge-expose-headers.js'
import type { SandboxResponse } from '../http/types.js'
import { belowBasePath } from '../pipeline/locate.js'
import { checkOptionNames } from '../sandbox/check-option-names.js'
import { createSandboxCore, type SandboxCore } from '../sandbox/create-sandbox-core.js'
import { SANDBOX_OPTION_NAMES, type SandboxOptions } from '../sandbox/sandbox-options.js'
import { crossOriginHeaders } from './cross-origin-headers.js'
import { fulfilFault } from './fulfil-fault.js'
import { fulfilWithOwnHandlers } from './fulfil-with-own-handlers.js'

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
    /** Set once the page gave up on the request (`net::ERR_ABORTED`). */
    failure?(): { errorText: string } | null
  }
  fulfill(response: {
    status: number
    headers: Record<string, string>
    body: string | Buffer
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
   * for any URL the page requests that the contract does not define. Below
   * the base path they run inside the sandbox's pipeline (key, quota,
   * session, scenario, journal; decision 0042) unless marked with
   * `publicHandler` or `passthroughHandler`; outside it, as they are (msw is
   * loaded only when you pass MSW handlers).
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

// Playwright's abort codes for the faults that send no byte and shape none.
const ABORT_CODES: Readonly<Record<'network-error' | 'timeout', string>> = {
  'network-error': 'failed',
  timeout: 'timedout',
}

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** How often a held answer looks whether the page gave up on its request. */
const GIVE_UP_POLL_MS = 50

/**
 * Waits out a held answer's delay, or until the page gives up on the request
 * (Playwright then reports its `failure()`, and has no event on the route).
 * Resolves true when the page gave up.
 */
const holdUnlessGivenUp = async (
  ms: number,
  request: ReturnType<RouteLike['request']>,
): Promise<boolean> => {
  const deadline = Date.now() + ms
  for (;;) {
    if (request.failure?.() != null) return true
    const left = deadline - Date.now()
    if (left <= 0) return false
    await wait(Math.min(left, GIVE_UP_POLL_MS))
  }
}

type Fulfilment = Parameters<RouteLike['fulfill']>[0]

/** An upstream's answer for `route.fulfill`: repeated headers joined (Set-Cookie by newlines, as Playwright wants). */
const exactFulfilment = (response: SandboxResponse, cors: Record<string, string>): Fulfilment => {
  // By lower-case name: the name as first sent, the values joined (a Map: any name stays a header).
  const joined = new Map<string, [string, string]>()
  const exposed: string[] = []
  for (const [name, value] of response.exact?.headers ?? []) {
    const key = name.toLowerCase()
    // CORS is between the page and the sandbox: the sandbox's headers win, the names the
    // upstream exposes exposed too (issue 31).
    if (key === 'access-control-expose-headers') exposed.push(value)
    if (key.startsWith('access-control-')) continue
    const seen = joined.get(key)
    joined.set(
      key,
      seen === undefined
        ? [name, value]
        : [seen[0], `${seen[1]}${key === 'set-cookie' ? '\n' : ', '}${value}`],
    )
  }
  for (const name in cors) {
    const key = name.toLowerCase()
    const value = cors[name] as string
    joined.set(key, [
      name,
      key === 'access-control-expose-headers' ? mergeExposeHeaders(value, exposed) : value,
    ])
  }
  const headers = Object.fromEntries(joined.values())
  const bytes = response.exact?.body ?? new Uint8Array(0)
  return {
    status: response.status,
    headers,
    body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
  }
}

/**
 * Gives a Playwright page (or a whole browser context) the sandbox at the
 * network layer, without a service worker: requests to the API are routed
 * into the sandbox, which answers them in the test process. Returns the
 * sandbox, so the test holds the controls. Cross-origin requests get the CORS
 * headers the standalone server would send.
 *
 * Your own handlers: the `handlers` option (MSW handlers or plain functions)
 * answers any URL the page requests that the contract does not define, inside
 * the pipeline below the base path (docs/your-endpoints.md); a `page.route()` you add after
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
  // Upstream mode: `record` and `replay` may name files (docs/upstream.md).
  if (coreOptions.upstream !== undefined)
    coreOptions.upstream = resolveUpstreamFiles(coreOptions.upstream).option
  // Your handlers below the base path run inside the pipeline (decision 0042).
  let plan: OwnHandlerPlan | undefined
  const sandbox = createSandboxCore(
    typeof options === 'object' && options !== null ? coreOptions : options,
    own.length === 0
      ? {}
      : (basePath) => {
          plan = planOwnHandlers(own, basePath, 'install the sandbox', loadMswOnDemand)
          return plan
        },
  )
  const passthrough = plan?.passthrough ?? []
  const outside = plan?.outside ?? []
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
    const body = request.postDataBuffer()
    const sandboxRequest = {
      method,
      url,
      headers,
      body: body === null ? null : new Uint8Array(body),
    }
    if (!inApi(new URL(url))) {
      if (!(await fulfilWithOwnHandlers(route, outside, sandboxRequest, origin)))
        await route.fallback()
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
    // Upstream mode forwards with the core's `fetch` forwarder (this process, the body read as a
    // stream and capped as it inflates), not `route.fetch`, whose driver reads and inflates a
    // whole body without a limit (decision 0054).
    let answer = await sandbox.answer(sandboxRequest, { passUnknownRoutes: passthrough.length > 0 })
    if (answer === null && passthrough.length > 0) {
      // A path no route matches: your passthrough handlers first, then the sandbox (your
      // other handlers inside its pipeline, else its 404).
      if (await fulfilWithOwnHandlers(route, passthrough, sandboxRequest, origin)) return
      answer = await sandbox.answer(sandboxRequest)
    }
    if (answer === null) {
      await route.fallback()
      return
    }
    const { response } = answer
    if (response.delayMs !== undefined && response.delayMs > 0) {
      if (await holdUnlessGivenUp(response.delayMs, request)) {
        // The page gave up (decision 0032): the journal says so; the route is settled quietly.
        await answer.markAborted()
        await route.abort('aborted').catch(() => {})
        return
      }
    }
    if (response.fault !== undefined) {
      if (response.delivery === undefined)
        await route.abort(ABORT_CODES[response.fault === 'timeout' ? 'timeout' : 'network-error'])
      else
        await fulfilFault({
          route,
          delivery: response.delivery,
          cors: crossOriginHeaders({ origin, url }),
          hold: (ms) => holdUnlessGivenUp(ms, request),
          onGone: () => answer.markAborted(),
        })
      return
    }
    if (response.exact !== undefined) {
      await route.fulfill(exactFulfilment(response, crossOriginHeaders({ origin, url })))
      return
    }
    await route.fulfill({
      status: response.status,
      headers: { ...response.headers, ...crossOriginHeaders({ origin, url }) },
      // HEAD: the same status and headers as GET, never a body (contract §15).
      body:
        method === 'HEAD'
          ? ''
          : response.bytes !== undefined
            ? Buffer.from(response.bytes)
            : (response.body ?? ''),
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
