import { readFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { hostname } from 'node:os'
import type { Duplex } from 'node:stream'
import { resolveUpstreamFiles } from '../files/resolve-upstream-files.js'
import { checkOwnHandlers } from '../handlers/check-own-handlers.js'
import { loadMswOnDemand } from '../handlers/load-msw-on-demand.js'
import { type OwnHandlerPlan, planOwnHandlers } from '../handlers/own-operations.js'
import { ApiError } from '../http/api-error.js'
import type { Awaitable } from '../http/awaitable.js'
import { internalError, routeNotFound } from '../http/errors.js'
import type { JournalRecord } from '../journal/journal.js'
import { belowBasePath } from '../pipeline/locate.js'
import { checkOptionNames } from '../sandbox/check-option-names.js'
import { createSandboxCore, type SandboxCore } from '../sandbox/create-sandbox-core.js'
import { createMemoryAccountStore, type MemoryAccountStore } from '../state/memory-account-store.js'
import type { SharedState } from '../state/shared-store.js'
import {
  ACCOUNT_ID,
  ACCOUNT_LIMITS,
  type AccountService,
  createAccountService,
} from './accounts/account-service.js'
import { handlePortalRequest, PORTAL_PREFIX } from './accounts/handle-portal-request.js'
import { createPortalPage } from './accounts/portal-page.js'
import { answerApiOrOwnHandlers } from './answer-api-or-own-handlers.js'
import { type ApiAnswerContext, answerApiRequest } from './answer-api-request.js'
import { requestOrigin, requestUrl } from './build-sandbox-request.js'
import { checkRequestHead } from './check-request-head.js'
import { checkControlOrigin } from './control/check-control-origin.js'
import { createControlAccess } from './control/create-control-access.js'
import { CONTROL_PREFIX, handleControlRequest } from './control/handle-control-request.js'
import { createCorsHandler, exposingTotalCount, writtenWithAnswer } from './create-cors-handler.js'
import { createDashboard } from './dashboard/create-dashboard.js'
import { DASHBOARD_HEADERS } from './dashboard/dashboard-headers.js'
import { handleDashboardRequest } from './dashboard/handle-dashboard-request.js'
import { type AttachedDataFile, attachDataFile } from './data-file/attach-data-file.js'
import { describeRequest } from './describe-request.js'
import { createDocsPage, handleDocsRequest } from './docs/handle-docs-request.js'
import { createNodeForwarder } from './forward-with-node-http.js'
import { handleClientError, markAnswered, writeErrorAndClose } from './handle-client-error.js'
import { serveOwnHandlers } from './serve-own-handlers.js'
import { SERVER_LIMITS } from './server-limits.js'
import { answerServerIndex, describeLinks, serverLinks } from './server-links.js'
// Issue 13: makes the `store` option (Redis) available to the sandboxes this module creates.
import './redis-store.js'
import { readHeaderText } from '../http/read-header-text.js'
import { type SandboxServerOptions, SERVER_OPTION_NAMES } from './server-options.js'
import { createHeldAnswers, writeNow } from './write-sandbox-response.js'

/** A standalone sandbox server on node:http. */
export interface SandboxServer<S extends string = never> {
  /** The sandbox behind the server; the data file follows its events. */
  readonly sandbox: SandboxCore<S>
  readonly server: Server
  /** Loads the data file and the OpenAPI document, then listens. Port 0 picks a free port. */
  listen(port?: number, host?: string): Promise<{ url: string; port: number; host: string }>
  /** Stops accepting, lets in-flight requests finish (up to the grace time), flushes the data file. */
  close(): Promise<void>
}

const OPENAPI_URL = new URL('../../openapi/petstore-sandbox.openapi.json', import.meta.url)

const pathOf = (target: string): string => {
  const query = target.indexOf('?')
  return query === -1 ? target : target.slice(0, query)
}

/**
 * Creates the standalone server: the API through the core (no Fetch objects
 * on that path), the control API under `/__sandbox`, CORS, extra MSW
 * handlers, and 404 `route_not_found` for everything else.
 *
 * @example
 * const app = createSandboxServer({ seed: 1, dataFile: './pets.json' })
 * const { url } = await app.listen(4010, '127.0.0.1')
 * // later
 * await app.close()
 */
export const createSandboxServer = <const S extends string = never>(
  options: SandboxServerOptions<S> = {},
): SandboxServer<S> => {
  checkOptionNames(options, SERVER_OPTION_NAMES, 'create the server')
  const {
    adminToken,
    accounts: accountsMode,
    allowedHosts = [],
    dataFile,
    handlers: givenHandlers,
    onRequest,
    timeouts = {},
    cors: corsOptions,
    maxHoldMs = 30_000,
    shutdownGraceMs,
    ...sandboxOptions
  } = options
  if (dataFile !== undefined && sandboxOptions.store !== undefined)
    throw new TypeError(
      'Failed to create the server: a data file and a shared store cannot be combined; the store (Redis) keeps the pets. Drop --data or --store.',
    )
  if (accountsMode !== undefined) {
    if (accountsMode !== 'open' && accountsMode !== 'invite')
      throw new TypeError(
        `Failed to create the server: accounts must be "open" or "invite", got ${JSON.stringify(accountsMode)}.`,
      )
    if (adminToken === undefined)
      throw new TypeError(
        'Failed to create the server: accounts need an admin token (it is meant to face a network). Add --admin-token.',
      )
    // An account's sandbox keeps its data 30 days unused, and its journal 1,000 entries (contract §22).
    sandboxOptions.sessionTtlMs ??= ACCOUNT_LIMITS.sandboxIdleMs
    sandboxOptions.journalSize ??= ACCOUNT_LIMITS.journalEntries
  }
  // The account service is made once the sandbox (and its store) is; the request path asks it.
  let accountService: AccountService | undefined
  const accountAdditions =
    accountsMode === undefined
      ? undefined
      : {
          keys: {
            findKey: (token: string) => (accountService as AccountService).findKey(token),
            isAccountSession: (id: string) => ACCOUNT_ID.test(id),
          },
          maxPets: ACCOUNT_LIMITS.maxPets,
        }
  const handlers = checkOwnHandlers(givenHandlers, 'create the server')
  // Upstream mode (contract §17): record and replay files, and a keep-alive client to the upstream.
  const files = resolveUpstreamFiles(sandboxOptions.upstream)
  // Several instances on one store: each names itself in the journal entries it writes.
  // Your handlers below the base path run inside the pipeline (decision 0042).
  let plan: OwnHandlerPlan | undefined
  const sandbox = createSandboxCore(
    {
      ...sandboxOptions,
      upstream: files.option,
      instance:
        sandboxOptions.instance ??
        (sandboxOptions.store === undefined
          ? undefined
          : `${hostname()}:${process.pid}`.replace(/[^A-Za-z0-9._:@-]/g, '-').slice(-64)),
    },
    handlers.length === 0
      ? { accounts: accountAdditions }
      : (base) => {
          plan = planOwnHandlers(handlers, base, 'create the server', loadMswOnDemand)
          return { ...plan, accounts: accountAdditions }
        },
  )
  const accountStore =
    accountsMode === undefined
      ? undefined
      : sandboxOptions.store === undefined
        ? createMemoryAccountStore()
        : (sandbox.state as SharedState).accounts
  if (accountsMode !== undefined) {
    if (accountStore === undefined)
      throw new TypeError(
        'Failed to create the server: this store keeps no accounts. Use --accounts without --store, or a store that keeps them.',
      )
    accountService = createAccountService({
      store: accountStore,
      mode: accountsMode,
      now: sandboxOptions.now ?? (() => Date.now()),
    })
  }
  const portal =
    accountService === undefined
      ? undefined
      : { accounts: accountService, sandbox, page: createPortalPage() }
  const passthrough = plan?.passthrough ?? []
  const outside = plan?.outside ?? []
  const forwarder = sandbox.upstream.url === undefined ? undefined : createNodeForwarder()
  // One count of wrong admin tokens for the control API and the dashboard (issue 24).
  const access = createControlAccess({ adminToken, now: sandboxOptions.now })
  const dashboard = createDashboard({ sandbox, access })
  // The API reference (issue 30): its files are read on the first request for them.
  const docs = createDocsPage({ basePath: sandbox.basePath })
  const basePath = sandbox.basePath
  const held = createHeldAnswers(maxHoldMs)
  const cors =
    corsOptions === false
      ? undefined
      : createCorsHandler(corsOptions ?? exposingTotalCount(sandbox.fidelity.totalCountHeader))
  const applyCors = cors ?? (() => false)
  let data: AttachedDataFile | undefined
  let openApiDocument: string | undefined
  let fallbackHost = '127.0.0.1'
  let closing: Promise<void> | undefined

  // The journal record of each answered API request, for its log line (only when there is a log).
  const answered = new WeakMap<IncomingMessage, JournalRecord>()
  const api: ApiAnswerContext = {
    sandbox,
    held,
    get fallbackHost() {
      return fallbackHost
    },
    forward: forwarder?.forward,
    onAnswered:
      onRequest === undefined
        ? (_req, record) => dashboard.count(record.status)
        : (req, record) => {
            dashboard.count(record.status)
            answered.set(req, record)
          },
  }
  const control = {
    sandbox,
    access,
    accounts: accountService,
    allowedHosts,
    get openApiDocument() {
      return openApiDocument
    },
  }

  const routeControl = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // Host and Origin first, for the dashboard's routes as for the control API's (contract §14).
    const foreign = checkControlOrigin(req, allowedHosts)
    if (foreign !== undefined) {
      writeNow(res, {
        ...foreign.toResponse(),
        headers: { ...DASHBOARD_HEADERS, ...foreign.toResponse().headers },
      })
      return
    }
    if (await handleDashboardRequest(dashboard, req, res)) return
    if (await handleDocsRequest(docs, req, res)) return
    await handleControlRequest(control, req, res)
  }

  // What no API route answered: the server's index at `/`, else 404 `route_not_found`.
  const answerNotFound = (req: IncomingMessage, res: ServerResponse, path: string): void => {
    if (path === '/') {
      writeNow(
        res,
        answerServerIndex(
          req.method ?? 'GET',
          serverLinks(requestOrigin(req, fallbackHost), basePath),
        ),
      )
      return
    }
    writeNow(res, routeNotFound(path).toResponse())
  }

  // Your passthrough handlers below the base path come after the API's routes (decisions 0022,
  // 0042); your other handlers answer outside it (below it, they run inside the pipeline).
  const routeWithHandlers = async (
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    below: string | undefined,
    basePathHint: string | undefined,
  ): Promise<void> => {
    const url = requestUrl(req, requestOrigin(req, fallbackHost))
    if (below !== undefined) {
      if (url === undefined) {
        if (await answerApiRequest(api, req, res, { basePathHint })) return
      } else if (
        await answerApiOrOwnHandlers({
          api,
          handlers: passthrough,
          req,
          res,
          url,
          basePathHint: basePathHint ?? '',
        })
      )
        return
    } else if (url !== undefined && outside.length > 0) {
      if (await serveOwnHandlers(outside, req, res, url)) return
    }
    answerNotFound(req, res, path)
  }

  // Synchronous for an API request answered at once (the hot path, decision 0039).
  const route = (req: IncomingMessage, res: ServerResponse): Awaitable<void> => {
    if (req.url !== undefined && !req.url.startsWith('/')) {
      // An absolute-form target (`GET http://host/v1/pets`) is routed by its path.
      const url = requestUrl(req, 'http://localhost')
      if (url !== undefined) req.url = url.slice('http://localhost'.length)
    }
    const target = req.url ?? '/'
    const path = pathOf(target)
    // Before CORS: the control API sends no Access-Control-Allow-* header at all (contract §14).
    if (belowBasePath(path, CONTROL_PREFIX) !== undefined) return routeControl(req, res)
    if (portal !== undefined) {
      const inPortal = belowBasePath(path, PORTAL_PREFIX)
      if (inPortal !== undefined) return handlePortalRequest(portal, req, res, inPortal)
    }
    const below = belowBasePath(path, basePath)
    // The API's hot path writes the CORS headers with its answer (one writeHead, decision 0021).
    const corsHeaders =
      below !== undefined && passthrough.length === 0 ? writtenWithAnswer(cors, req) : undefined
    if (corsHeaders === undefined && applyCors(req, res)) return
    // Only the bare base path's 404 names the dashboard and the document.
    const basePathHint =
      below === '' || below === '/'
        ? describeLinks(serverLinks(requestOrigin(req, fallbackHost), basePath))
        : undefined
    if (below === undefined || passthrough.length > 0)
      return routeWithHandlers(req, res, path, below, basePathHint)
    const notTheApis = (): void => {
      // Not the API's after all (a target that is not a path): the 404 gets CORS the usual way.
      if (corsHeaders !== undefined && applyCors(req, res)) return
      answerNotFound(req, res, path)
    }
    const answered = answerApiRequest(api, req, res, { basePathHint, headers: corsHeaders })
    if (answered === true) return
    if (answered === false) return notTheApis()
    return answered.then((done) => (done ? undefined : notTheApis()))
  }

  const failed = (res: ServerResponse, error: unknown): void => {
    if (res.headersSent) res.destroy()
    // An ApiError that got past the pipeline (the shared store refusing even the fallback
    // session, say: 503 service_unavailable) is still the contract's answer, not a 500
    // (issue 31, item 9: a 500 under load in store-lost.test.ts).
    else if (error instanceof ApiError) writeNow(res, error.toResponse())
    else {
      console.error('[petstore-sandbox] failed to answer a request:', error)
      writeNow(res, internalError().toResponse())
    }
  }

  const onHttpRequest = (req: IncomingMessage, res: ServerResponse): void => {
    if (onRequest !== undefined) {
      const started = performance.now()
      res.once('close', () => {
        onRequest(
          describeRequest({ req, res, entry: answered.get(req), ms: performance.now() - started }),
        )
      })
    }
    if (closing !== undefined) {
      res.shouldKeepAlive = false
    }
    const refused = checkRequestHead(req)
    if (refused !== undefined) {
      res.shouldKeepAlive = false
      markAnswered(req.socket)
      writeNow(res, refused.toResponse())
      return
    }
    let routed: Awaitable<void>
    try {
      routed = route(req, res)
    } catch (error) {
      failed(res, error)
      return
    }
    if (routed instanceof Promise) routed.catch((error: unknown) => failed(res, error))
  }

  const server = createServer(
    {
      requestTimeout: timeouts.requestMs ?? 30_000,
      headersTimeout: timeouts.headersMs ?? 10_000,
      // node checks both timeouts on this interval (default 30 s, so "10 s" meant up to 40 s).
      connectionsCheckingInterval: timeouts.checkIntervalMs ?? 500,
      maxHeaderSize: SERVER_LIMITS.maxHeadBytes,
      // checkRequestHead answers a missing Host with a JSON body; node's own 400 has none.
      requireHostHeader: false,
    },
    onHttpRequest,
  )
  server.keepAliveTimeout = timeouts.keepAliveMs ?? 5_000
  // One line past the limit is kept, so checkRequestHead sees that there were too many.
  server.maxHeadersCount = SERVER_LIMITS.maxHeaderLines + 1
  server.on('clientError', handleClientError)
  // Without these listeners node answers 417 with an empty body and drops CONNECT unanswered.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    res.shouldKeepAlive = false
    writeNow(
      res,
      new ApiError(
        'expectation_failed',
        `Expect "${readHeaderText(String(req.headers.expect))}" is not supported; only 100-continue is.`,
      ).toResponse(),
    )
  })
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    writeErrorAndClose(
      socket,
      new ApiError('not_implemented', 'CONNECT is not supported: this is not a proxy.'),
    )
  })

  return {
    sandbox,
    server,
    async listen(port = 4010, host = '127.0.0.1') {
      // Together, not one after the other: each stands between a start and its first answer.
      const [document, , attached] = await Promise.all([
        readFile(OPENAPI_URL, 'utf8').catch(() => undefined),
        dashboard.load(),
        dataFile === undefined
          ? sandbox.ready.then(() => undefined)
          : attachDataFile(sandbox, dataFile, {
              accounts: accountStore as MemoryAccountStore | undefined,
              now: sandboxOptions.now,
            }),
        portal?.page?.load(),
      ])
      openApiDocument = document
      // Operations from an OpenAPI document (contract §20): in the document the server serves too.
      if (document !== undefined && sandbox.openapi !== undefined) {
        const [{ mergeOpenApiDocument }, added] = await Promise.all([
          import('../openapi/merge-openapi-document.js'),
          sandbox.openapi,
        ])
        openApiDocument = mergeOpenApiDocument(document, added)
      }
      data = attached
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject)
        server.listen(port, host, () => {
          server.off('error', reject)
          resolve()
        })
      })
      const address = server.address() as AddressInfo
      const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address
      fallbackHost = `${shown}:${address.port}`
      return { url: `http://${fallbackHost}`, port: address.port, host: address.address }
    },
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()))
        // In-flight requests finish; idle keep-alive connections go now, busy ones once answered.
        server.closeIdleConnections()
        const sweep = setInterval(() => server.closeIdleConnections(), 50)
        const cut = setTimeout(() => server.closeAllConnections(), shutdownGraceMs ?? 10_000)
        held.releaseAll()
        dashboard.close()
        await closed
        clearInterval(sweep)
        clearTimeout(cut)
        // A reset in progress writes the file before its session is ready again.
        await sandbox.ready.catch(() => {})
        await data?.flush()
        data?.detach()
        await sandbox.upstream.flush()
        await files.flush()
        forwarder?.close()
        // Hook (issue 13): the shared store's connection.
        await sandbox.disconnect()
      })()
      return closing
    },
  }
}
