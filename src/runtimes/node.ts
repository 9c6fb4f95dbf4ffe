import { type SetupServer, setupServer } from 'msw/node'
import { resolveUpstreamFiles } from '../files/resolve-upstream-files.js'
import {
  type CreateSandboxOptions,
  createSandbox,
  type Sandbox,
} from '../handlers/create-sandbox.js'

export interface NodeSandboxOptions extends CreateSandboxOptions {
  /** What MSW does with requests no handler answers (default `error`: a test must not reach the network by accident). */
  onUnhandledRequest?: 'bypass' | 'warn' | 'error'
}

/** A sandbox with its own MSW `setupServer`, for Node test runners. */
export interface NodeSandbox extends Sandbox {
  readonly server: SetupServer
  /** Starts intercepting (call in `beforeAll`). */
  listen(): void
  /** Stops intercepting (call in `afterAll`). */
  close(): void
}

/**
 * The sandbox for a Node test runner, in three lines. Resetting the default
 * session also drops handlers a test added with `server.use()`.
 *
 * @example
 * const sandbox = setupSandbox()
 * beforeAll(() => sandbox.listen())
 * afterEach(() => sandbox.reset())
 * afterAll(() => sandbox.close())
 */
export const setupSandbox = (options: NodeSandboxOptions = {}): NodeSandbox => {
  const { onUnhandledRequest = 'error', ...sandboxOptions } = options
  // Upstream mode in Node: `record` and `replay` may name files (docs/upstream.md).
  if (sandboxOptions.upstream !== undefined)
    sandboxOptions.upstream = resolveUpstreamFiles(sandboxOptions.upstream).option
  const sandbox = createSandbox(sandboxOptions)
  const server = setupServer(...sandbox.handlers)
  sandbox.events.on('reset', ({ session }) => {
    if (session === 'default') server.resetHandlers()
  })
  return Object.assign(sandbox, {
    server,
    listen: () => server.listen({ onUnhandledRequest }),
    close: () => server.close(),
  })
}

export * from '../index.js'
