import { createSandboxServer } from '../../src/server/create-sandbox-server.js'
import { formatLogLine } from '../../src/server/format-log-line.js'
import type { SandboxServerOptions } from '../../src/server/server-options.js'

/** A sandbox server in this process in front of an upstream process. */
export interface Front {
  origin: string
  app: ReturnType<typeof createSandboxServer>
  /** The request log's lines so far. */
  lines: string[]
  get(path: string, headers?: Record<string, string>): Promise<Response>
  send(
    method: string,
    path: string,
    init?: { headers?: Record<string, string>; body?: string },
  ): Promise<Response>
  /** The front's journal of a session. */
  journal(session?: string): Promise<JournalLike[]>
  close(): Promise<void>
}

export interface JournalLike {
  url: string
  status: number | null
  source: string
  scenario: string
  delayMs: number
  fault?: string
  violations: { rule: string; message: string }[]
  response: { headers: Record<string, string>; body: string | null } | null
}

export const FREE = { authorization: 'Bearer sandbox-free' }

/**
 * Starts `createSandboxServer` on a free port with the options given.
 *
 * @example
 * const front = await startFront({ upstream: upstream.url })
 */
export const startFront = async (options: SandboxServerOptions): Promise<Front> => {
  const lines: string[] = []
  const app = createSandboxServer({
    ...options,
    onRequest: (entry) => lines.push(formatLogLine(entry, new Date(0))),
  })
  const { url: origin } = await app.listen(0)
  const send: Front['send'] = (method, path, init = {}) =>
    fetch(`${origin}${path}`, { method, headers: init.headers ?? FREE, body: init.body ?? null })
  return {
    origin,
    app,
    lines,
    get: (path, headers = FREE) => send('GET', path, { headers }),
    send,
    journal: async (session = 'default') =>
      (await fetch(`${origin}/__sandbox/requests?__session=${session}`)).json() as never,
    close: () => app.close(),
  }
}
