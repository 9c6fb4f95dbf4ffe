import type { IncomingMessage, ServerResponse } from 'node:http'
import { dirname, join } from 'node:path'
import { ApiError } from '../../http/api-error.js'
import type { SandboxResponse } from '../../http/types.js'
import { DASHBOARD_HEADERS } from '../dashboard/dashboard-headers.js'
import {
  type DashboardAsset,
  findDashboardDir,
  loadDashboardAssets,
} from '../dashboard/load-dashboard-assets.js'
import { writeNow } from '../write-sandbox-response.js'

const PAGE = '/__sandbox/docs'
const ASSETS = `${PAGE}/assets/`

/** The API reference of a server: its built files, read on the first request for them. */
export interface DocsPage {
  /** The API's base path (`/v1`), which the page's try-it sends to. */
  readonly basePath: string
  /** The built page and its files, by name; read from `dir` once, on first use. */
  assets(): Promise<Map<string, DashboardAsset>>
}

/** Where `npm run build` puts the page: `dist/docs`, beside `dist/dashboard`. */
const findDocsDir = (): string => join(dirname(findDashboardDir()), 'docs')

/**
 * The API reference's state on a server. Nothing is read at start-up: the
 * renderer (about 1.5 MB of Swagger UI) is read into memory when the page or
 * one of its files is first asked for, so a server that never shows it never
 * pays for it (issue 30: the CLI's start-up is unchanged).
 *
 * @example
 * const docs = createDocsPage({ basePath: '/v1' })
 * if (await handleDocsRequest(docs, req, res)) return
 */
export const createDocsPage = (input: { basePath: string; dir?: string }): DocsPage => {
  let loading: Promise<Map<string, DashboardAsset>> | undefined
  return {
    basePath: input.basePath,
    assets: () => {
      loading ??= loadDashboardAssets(input.dir ?? findDocsDir())
      return loading
    },
  }
}

const HTML_ESCAPES = new Map([
  ['&', '&amp;'],
  ['<', '&lt;'],
  ['>', '&gt;'],
  ['"', '&quot;'],
  ["'", '&#39;'],
])
const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => HTML_ESCAPES.get(c) ?? c)

const notBuilt = (): ApiError =>
  new ApiError(
    'route_not_found',
    'The API reference is not built: run "npm run build" (the published package ships it built).',
  )

const answer = async (
  docs: DocsPage,
  method: string,
  path: string,
): Promise<SandboxResponse | undefined> => {
  const isPage = path === PAGE || path === `${PAGE}/`
  if (!isPage && !path.startsWith(`${PAGE}/`)) return undefined
  if (method !== 'GET' && method !== 'HEAD')
    throw new ApiError('method_not_allowed', `${method} is not allowed on ${path}. Allowed: GET.`, {
      headers: { Allow: 'GET' },
    })
  const assets = await docs.assets()
  if (isPage) {
    const index = assets.get('index.html')
    if (index === undefined) throw notBuilt()
    return {
      status: 200,
      headers: { 'Content-Type': index.contentType, 'Cache-Control': 'no-store' },
      body: index.body.toString('utf8').replace('%BASE_PATH%', escapeHtml(docs.basePath)),
    }
  }
  const name = path.startsWith(ASSETS) ? path.slice(ASSETS.length) : ''
  const file = name === 'index.html' ? undefined : assets.get(name)
  if (file === undefined) {
    if (assets.size === 0) throw notBuilt()
    throw new ApiError('route_not_found', `No API reference file ${path}.`)
  }
  return {
    status: 200,
    headers: {
      'Content-Type': file.contentType,
      'Cache-Control': 'public, max-age=31536000, immutable',
    },
    body: file.body.toString('utf8'),
  }
}

/**
 * Answers `GET /__sandbox/docs` (the API reference: Swagger UI over the
 * document at `/__sandbox/openapi.json`, with try-it against this server) and
 * its hashed files under `/__sandbox/docs/assets/`. Like the dashboard's page,
 * they carry no data and load without the admin token; the caller has checked
 * Host and Origin (contract §14), and every call the page makes for data goes
 * through the control API's access rules. Resolves false for other paths.
 *
 * @example
 * if (await handleDocsRequest(docs, req, res)) return
 */
export const handleDocsRequest = async (
  docs: DocsPage,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<boolean> => {
  const target = req.url ?? '/'
  const query = target.indexOf('?')
  const path = query === -1 ? target : target.slice(0, query)
  let response: SandboxResponse | undefined
  try {
    response = await answer(docs, req.method ?? 'GET', path)
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    response = error.toResponse()
  }
  if (response === undefined) return false
  response.headers = { ...DASHBOARD_HEADERS, 'Cache-Control': 'no-store', ...response.headers }
  writeNow(res, response)
  return true
}
