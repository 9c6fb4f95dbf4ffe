import type { IncomingMessage, ServerResponse } from 'node:http'
import { belowBasePath } from '../pipeline/locate.js'
import type { SandboxCore } from '../sandbox/create-sandbox-core.js'
import { type ApiAnswerContext, answerApiRequest } from './answer-api-request.js'
import { createHeldAnswers } from './write-sandbox-response.js'

/** Options of `sandboxMiddleware`. */
export interface SandboxMiddlewareOptions {
  /** Longest a response delay or a `timeout` fault holds a request (default 30,000 ms). */
  maxHoldMs?: number
}

/** A connect/express middleware: `(req, res, next)`. */
export type SandboxMiddleware = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (error?: unknown) => void,
) => void

const encoder = new TextEncoder()

/** The body a body parser mounted before us left on `req.body`, as bytes. */
const parsedBody = (req: IncomingMessage): Uint8Array | undefined => {
  if (!req.readableEnded || !('body' in req)) return undefined
  const body: unknown = req.body
  if (body instanceof Uint8Array) return body
  if (typeof body === 'string') return encoder.encode(body)
  if (body === undefined || body === null) return undefined
  return encoder.encode(JSON.stringify(body))
}

/**
 * Mounts the sandbox's API in your own express or connect app. Requests
 * below the base path are answered by the core; everything else goes to
 * `next()`. Mount it before body parsers (a parsed JSON body is re-encoded,
 * which loses malformed-JSON checks). The control API and CORS are the
 * standalone server's; use your app's own middleware for those.
 *
 * @example
 * const app = express()
 * app.use(sandboxMiddleware(createSandbox({ seed: 1 })))
 * app.listen(3000)
 */
export const sandboxMiddleware = (
  sandbox: SandboxCore<string>,
  options: SandboxMiddlewareOptions = {},
): SandboxMiddleware => {
  const ctx: ApiAnswerContext = {
    sandbox,
    held: createHeldAnswers(options.maxHoldMs ?? 30_000),
    fallbackHost: 'localhost',
  }
  return (req, res, next) => {
    // Under a mount path express strips req.url; the API needs the whole path.
    const path = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/'
    const pathname = path.split('?')[0] ?? path
    // The sandbox's own base path (its `baseUrl`), decided where the core decides it.
    if (belowBasePath(pathname, sandbox.basePath) === undefined) {
      next()
      return
    }
    // Async around it: a throw reaches `next` as a rejection does.
    ;(async () => answerApiRequest(ctx, req, res, { path, body: parsedBody(req) }))().then(
      (handled) => {
        if (!handled) next()
      },
      (error: unknown) => next(error),
    )
  }
}
