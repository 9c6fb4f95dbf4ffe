import { parseRequestUrl, type RequestUrl } from '../http/request-url.js'
import type { SandboxRequest } from '../http/types.js'
import type { PipelineContext } from './pipeline-context.js'

/** A request of the sandbox's: its URL and its path below the base path. */
export interface LocatedRequest {
  url: RequestUrl
  /** The path below the base path: `/pets/7`, or `` for the base path itself. */
  path: string
}

/**
 * Stage 0: is this request the API's? Undefined when its URL is outside the
 * base path (or the one origin a full `baseUrl` names), so the runtime passes
 * it on. The one place base-path membership is decided.
 *
 * @example
 * locate(ctx, request) // { url, path: '/pets' }
 */
export const locate = (
  ctx: Pick<PipelineContext, 'origin' | 'settings'>,
  request: Pick<SandboxRequest, 'url'>,
): LocatedRequest | undefined => {
  const url = parseRequestUrl(request.url)
  if (url === undefined) return undefined
  if (ctx.origin !== undefined && url.origin !== ctx.origin) return undefined
  const path = belowBasePath(url.pathname, ctx.settings.basePath)
  return path === undefined ? undefined : { url, path }
}

/**
 * The part of a pathname below `basePath`, or undefined outside it.
 *
 * @example
 * belowBasePath('/v1/pets', '/v1') // '/pets'
 * belowBasePath('/v10/pets', '/v1') // undefined
 */
export const belowBasePath = (pathname: string, basePath: string): string | undefined => {
  if (pathname === basePath) return ''
  return pathname.startsWith(`${basePath}/`) ? pathname.slice(basePath.length) : undefined
}
