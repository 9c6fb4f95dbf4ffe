import type { IncomingMessage, ServerResponse } from 'node:http'
import { PET_STATUSES, type PetStatus } from '../../contract/pet.js'
import { ApiError } from '../../http/api-error.js'
import { jsonResponse } from '../../http/json-response.js'
import type { SandboxResponse } from '../../http/types.js'
import { requestedSession } from '../../pipeline/select-session.js'
import { DEFAULT_SESSION } from '../../state/sandbox-state.js'
import { writeNow } from '../write-sandbox-response.js'
import type { Dashboard } from './create-dashboard.js'
import { DASHBOARD_HEADERS } from './dashboard-headers.js'

const PREFIX = '/__sandbox'

type Route = (
  dashboard: Dashboard,
  req: IncomingMessage,
  res: ServerResponse,
) => SandboxResponse | 'streamed' | Promise<SandboxResponse | 'streamed'>

const DEFAULT_SCENARIO = 'default'

const isPetStatus = (value: string): value is PetStatus =>
  (PET_STATUSES as readonly string[]).includes(value)

const wholeNumber = (text: string | null, name: string, min: number, max: number) => {
  if (text === null) return undefined
  const n = /^(0|[1-9][0-9]{0,15})$/.test(text) ? Number(text) : Number.NaN
  if (!(n >= min && n <= max)) {
    throw new ApiError(
      'invalid_parameter',
      `${name} must be a whole number from ${min} to ${max}.`,
      {
        details: [{ field: name, message: `must be a whole number from ${min} to ${max}` }],
      },
    )
  }
  return n
}

const page = (dashboard: Dashboard): SandboxResponse => {
  const index = dashboard.assets.get('index.html')
  if (index === undefined) {
    throw new ApiError(
      'route_not_found',
      'The dashboard is not built: run "npm run build" (the published package ships it built).',
    )
  }
  return {
    status: 200,
    headers: { 'Content-Type': index.contentType, 'Cache-Control': 'no-store' },
    body: index.body.toString('utf8'),
  }
}

/** The session a dashboard call watches: `?__session=` or `X-Sandbox-Session`, else `default`. */
const watchedSession = (req: IncomingMessage): string =>
  requestedSession(
    new URL(req.url ?? '/', 'http://x'),
    req.headers as Record<string, string | undefined>,
  ) ?? DEFAULT_SESSION

/** The session's own pets (its default store), read through the state seam: fresh on a shared store too. */
const pets = async (dashboard: Dashboard, req: IncomingMessage): Promise<SandboxResponse> => {
  const query = new URL(req.url ?? '/', 'http://x').searchParams
  const status = query.get('status')
  if (status !== null && !isPetStatus(status)) {
    throw new ApiError('invalid_parameter', `status must be one of ${PET_STATUSES.join(', ')}.`, {
      details: [{ field: 'status', message: `must be one of ${PET_STATUSES.join(', ')}` }],
    })
  }
  const limit = wholeNumber(query.get('limit'), 'limit', 1, 100) ?? 10
  const afterId = wholeNumber(query.get('after'), 'after', 0, Number.MAX_SAFE_INTEGER)
  const { sandbox } = dashboard
  const session = await sandbox.state.session(watchedSession(req))
  const store = await session.store(sandbox.scenarios.require(DEFAULT_SCENARIO))
  const found = await store.list({ status: status ?? undefined, afterId, limit })
  return jsonResponse(200, {
    pets: found.pets,
    total: found.total,
    nextAfter: found.nextAfterId ?? null,
  })
}

/** The dashboard's routes below /__sandbox: path → method → answer (Maps: a path is user input). */
const ROUTES = new Map<string, { auth: boolean; methods: Map<string, Route> }>([
  // The page and its files carry no data: they load without the admin token (docs/decisions/0011-dashboard-event-stream.md).
  ['', { auth: false, methods: new Map([['GET', (d) => page(d)]]) }],
  ['/', { auth: false, methods: new Map([['GET', (d) => page(d)]]) }],
  [
    '/events',
    {
      auth: true,
      methods: new Map([
        [
          'GET',
          async (d, req, res) => {
            await d.openStream(res, watchedSession(req))
            return 'streamed' as const
          },
        ],
      ]),
    },
  ],
  [
    '/quotas',
    {
      auth: true,
      methods: new Map<string, Route>([
        ['GET', async (d, req) => jsonResponse(200, await d.snapshot(watchedSession(req)))],
      ]),
    },
  ],
  ['/pets', { auth: true, methods: new Map([['GET', pets]]) }],
])

const asset = (dashboard: Dashboard, name: string): SandboxResponse | undefined => {
  const file = dashboard.assets.get(name)
  if (file === undefined || name === 'index.html') return undefined
  return {
    status: 200,
    headers: {
      'Content-Type': file.contentType,
      'Cache-Control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-store',
    },
    body: file.body.toString('utf8'),
  }
}

const revokeByRef = async (
  dashboard: Dashboard,
  ref: string,
  session: string,
): Promise<SandboxResponse> => {
  if (!(await dashboard.revokeByRef(ref, session)))
    throw new ApiError('key_not_found', 'No API key matches this reference.')
  dashboard.publish('change', { type: 'keys' })
  return { status: 204, headers: {}, body: null }
}

const answer = async (
  dashboard: Dashboard,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<SandboxResponse | 'streamed' | undefined> => {
  const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET')
  if (path.startsWith('/assets/')) {
    if (method !== 'GET')
      throw new ApiError('method_not_allowed', `${method} is not allowed here. Allowed: GET.`, {
        headers: { Allow: 'GET' },
      })
    const found = asset(dashboard, path.slice('/assets/'.length))
    if (found === undefined)
      throw new ApiError('route_not_found', `No dashboard file ${PREFIX}${path}.`)
    return found
  }
  // Checked once, and only for the dashboard's own routes: wrong admin tokens are counted.
  const check = (): void => {
    const denied = dashboard.access.check(req)
    if (denied !== undefined) throw denied
  }
  const byRef = /^\/keys\/by-ref\/([0-9a-f]{1,64})$/.exec(path)
  if (byRef?.[1] !== undefined) {
    check()
    if (method !== 'DELETE')
      throw new ApiError('method_not_allowed', `${method} is not allowed here. Allowed: DELETE.`, {
        headers: { Allow: 'DELETE' },
      })
    return revokeByRef(dashboard, byRef[1], watchedSession(req))
  }
  const route = ROUTES.get(path)
  if (route === undefined) return undefined
  if (route.auth) check()
  const handler = route.methods.get(method)
  if (handler === undefined) {
    const allow = [...route.methods.keys()].join(', ')
    throw new ApiError(
      'method_not_allowed',
      `${method} is not allowed on ${PREFIX}${path}. Allowed: ${allow}.`,
      {
        headers: { Allow: allow },
      },
    )
  }
  return handler(dashboard, req, res)
}

/**
 * Answers the dashboard's requests below /__sandbox: the page and its hashed
 * files (no token needed: they carry no data), the event stream, quotas,
 * pets, and revoking a key by its gauge's reference (the token or loopback,
 * as the control API). Resolves false for every other path, which the
 * control API answers.
 *
 * @example
 * if (isUnder(target, CONTROL_PREFIX) && (await handleDashboardRequest(dashboard, req, res))) return
 */
export const handleDashboardRequest = async (
  dashboard: Dashboard,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<boolean> => {
  const target = req.url ?? '/'
  const query = target.indexOf('?')
  const path = (query === -1 ? target : target.slice(0, query)).slice(PREFIX.length)
  let response: SandboxResponse | 'streamed' | undefined
  try {
    response = await answer(dashboard, req, res, path)
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    response = error.toResponse()
  }
  if (response === undefined) return false
  if (response === 'streamed') return true
  response.headers = { ...DASHBOARD_HEADERS, 'Cache-Control': 'no-store', ...response.headers }
  writeNow(res, response)
  return true
}
