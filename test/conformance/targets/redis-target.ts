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

export interface MultiInstanceTarget extends ConformanceTarget {
  apps: SandboxServer[]
  /** Each instance's origin, e.g. `http://127.0.0.1:54321`. */
  origins: string[]
  start(): Promise<void>
  stop(): Promise<void>
  /** Calls the control API of the next instance in turn; throws unless it answers 2xx. */
  control(method: string, path: string, body?: unknown): Promise<unknown>
}

/** The conformance controls over the control API; `call` reaches one session. */
const controlsOver = (
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
})

/**
 * Several standalone servers on one Redis, as a team runs them behind one
 * address: every request and every control call goes to the next instance in
 * turn, so the suite passes only if they answer as one sandbox.
 *
 * @example
 * const target = createMultiInstanceTarget(2, { store: redis.url })
 */
export const createMultiInstanceTarget = (
  count: number,
  options: SandboxServerOptions,
): MultiInstanceTarget => {
  // Each names itself in the journal (they share one process, so host:pid would not tell them apart).
  const apps = Array.from({ length: count }, (_, i) =>
    createSandboxServer({ maxHoldMs: 2_000, instance: `instance-${i}`, ...options }),
  )
  const origins: string[] = []
  let turn = 0
  const next = (): string => {
    const origin = origins[turn % origins.length] as string
    turn++
    return origin
  }
  const control = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(`${next()}/__sandbox${path}`, {
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
  const target: MultiInstanceTarget = {
    name: `${count} standalone servers on one Redis`,
    apps,
    origins,
    get baseUrl() {
      return `${origins[0]}/v1`
    },
    async start() {
      for (const app of apps) origins.push((await app.listen(0, '127.0.0.1')).url)
    },
    async stop() {
      await Promise.all(apps.map((app) => app.close()))
    },
    control,
    async send(request): Promise<WireResponse> {
      const origin = next()
      const { method, path, headers = {}, body } = request
      // Repeated headers on lines of their own, as node:http receives them from a raw client.
      const answer = repeatsHeader(request)
        ? await sendOverNodeHttp(`${origin}/v1${path}`, request)
        : await fetch(`${origin}/v1${path}`, {
            method,
            headers: headerPairs(headers),
            body: body ?? null,
          }).then(async (response) => ({
            status: response.status,
            headers: Object.fromEntries(response.headers),
            body: await response.text(),
          }))
      // Links name the instance that answered; the suite follows them through the first one.
      const out = answer.headers
      if (out.link !== undefined) out.link = out.link.replaceAll(origin, origins[0] as string)
      if (out.location !== undefined)
        out.location = out.location.replaceAll(origin, origins[0] as string)
      return answer
    },
    controls: controlsOver(control),
    // The control calls of a session carry the `__session` flag.
    session: (id) =>
      inSession(
        target,
        id,
        controlsOver((method, path, body) =>
          control(method, `${path}?__session=${encodeURIComponent(id)}`, body),
        ),
      ),
  }
  return target
}
