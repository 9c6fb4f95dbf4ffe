import type { IncomingMessage, ServerResponse } from 'node:http'
import { parseAuthorization } from '../auth/parse-authorization.js'
import { redactUrl } from '../journal/redact-secrets.js'
import type { SandboxCore } from '../sandbox/create-sandbox-core.js'
import type { RequestLogEntry } from './format-log-line.js'

const queryFlag = (search: string, name: string): string | undefined => {
  try {
    return new URLSearchParams(search).get(name) ?? undefined
  } catch {
    return undefined
  }
}

/**
 * The log entry of a finished request: method, path, status, time, and for
 * API requests the scenario that answered and the caller's plan. The
 * Authorization value never leaves this function.
 *
 * @example
 * res.once('close', () => log(describeRequest({ req, res, sandbox, basePath, ms })))
 */
export const describeRequest = (input: {
  req: IncomingMessage
  res: ServerResponse
  sandbox: SandboxCore
  basePath: string
  ms: number
}): RequestLogEntry => {
  const { req, res, sandbox, basePath } = input
  const path = req.url ?? '/'
  const status = res.writableFinished ? res.statusCode : 'dropped'
  const query = path.indexOf('?')
  const pathname = query === -1 ? path : path.slice(0, query)
  const isApi = pathname === basePath || pathname.startsWith(`${basePath}/`)
  let scenario = '-'
  let plan = '-'
  if (isApi && req.method !== 'OPTIONS') {
    const header = req.headers['x-sandbox-scenario']
    scenario =
      (query === -1 ? undefined : queryFlag(path.slice(query), '__scenario')) ??
      (typeof header === 'string' ? header.trim() : undefined) ??
      sandbox.scenario.get()
    const auth = parseAuthorization(req.headers.authorization)
    if (auth.kind === 'bearer') {
      plan = sandbox.keys.list().find((k) => k.key === auth.token)?.plan ?? 'invalid-key'
    } else plan = auth.kind === 'missing' ? 'no-key' : 'bad-auth'
  }
  return { method: req.method ?? '?', path: redactUrl(path), status, ms: input.ms, scenario, plan }
}
