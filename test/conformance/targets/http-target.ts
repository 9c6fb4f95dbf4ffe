import { createSandboxServer, type SandboxServer } from '../../../src/server/index.js'
import type { SandboxServerOptions } from '../../../src/server/server-options.js'
import { sendOverNodeHttp } from '../../support/send-over-node-http.js'
import {
  type ConformanceControls,
  type ConformanceTarget,
  headerPairs,
  inSession,
  repeatsHeader,
  type WireResponse,
} from '../parts/target.js'

export interface HttpTarget extends ConformanceTarget {
  app: SandboxServer
  /** The server's origin, e.g. `http://127.0.0.1:54321`. */
  origin: string
  start(): Promise<void>
  stop(): Promise<void>
  /** Calls the control API; throws unless it answers 2xx. */
  control(method: string, path: string, body?: unknown): Promise<unknown>
}

/** The conformance controls over the control API; `call` reaches one session. */
const httpControls = (
  call: (method: string, path: string, body?: unknown) => Promise<unknown>,
): ConformanceControls => ({
  reset: async () => {
    await call('POST', '/reset')
  },
  setClock: async (time) => {
    await call('POST', '/clock', { now: time })
  },
  advanceClock: async (ms) => {
    await call('POST', '/clock', { advanceMs: ms })
  },
  createKey: async (options) => {
    const created = (await call('POST', '/keys', options)) as { key: string }
    return created.key
  },
  revokeKey: async (key) => {
    await call('DELETE', `/keys/${encodeURIComponent(key)}`)
  },
  setScenario: async (name) => {
    await call('PUT', '/scenario', { name })
  },
  journal: async () => {
    const entries = (await call('GET', '/requests')) as {
      operation: string | null
      status: number | null
    }[]
    return entries.map(({ operation, status }) => ({ operation, status }))
  },
})

/**
 * The standalone server over real HTTP: started in this process on a free
 * port, requests sent with fetch, the sandbox steered through the control API.
 *
 * @example
 * const target = createHttpTarget()
 * beforeAll(() => target.start())
 * afterAll(() => target.stop())
 */
export const createHttpTarget = (options: SandboxServerOptions = {}): HttpTarget => {
  const app = createSandboxServer({ maxHoldMs: 2_000, ...options })
  let origin = ''
  const control = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(`${origin}/__sandbox${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
    })
    const text = await response.text()
    if (!response.ok) {
      throw new Error(
        `Failed to call the control API ${method} ${path}: ${response.status} ${text}`,
      )
    }
    return text === '' ? undefined : JSON.parse(text)
  }
  const target: HttpTarget = {
    name: 'standalone server (node:http)',
    app,
    get origin() {
      return origin
    },
    get baseUrl() {
      return `${origin}/v1`
    },
    async start() {
      origin = (await app.listen(0, '127.0.0.1')).url
    },
    stop: () => app.close(),
    control,
    async send(request): Promise<WireResponse> {
      // Repeated headers on lines of their own, as node:http receives them from a raw client.
      if (repeatsHeader(request)) return sendOverNodeHttp(`${origin}/v1${request.path}`, request)
      const { method, path, headers = {}, body } = request
      const response = await fetch(`${origin}/v1${path}`, {
        method,
        headers: headerPairs(headers),
        body: body ?? null,
      })
      return {
        status: response.status,
        headers: Object.fromEntries(response.headers),
        body: await response.text(),
      }
    },
    controls: httpControls(control),
    // The control calls of a session carry the `__session` flag.
    session: (id) =>
      inSession(
        target,
        id,
        httpControls((method, path, body) =>
          control(method, `${path}?__session=${encodeURIComponent(id)}`, body),
        ),
      ),
  }
  return target
}
