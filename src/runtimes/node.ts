import { type SetupServer, setupServer } from 'msw/node'
import {
  type CreateSandboxOptions,
  createSandbox,
  type Sandbox,
} from '../sandbox/create-sandbox.js'

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
 * The sandbox for a Node test runner, in three lines.
 *
 * @example
 * const sandbox = setupSandbox()
 * beforeAll(() => sandbox.listen())
 * afterEach(() => sandbox.reset())
 * afterAll(() => sandbox.close())
 */
export const setupSandbox = (options: NodeSandboxOptions = {}): NodeSandbox => {
  const { onUnhandledRequest = 'error', ...sandboxOptions } = options
  const sandbox = createSandbox(sandboxOptions)
  const server = setupServer(...sandbox.handlers)
  const resetSandbox = sandbox.reset
  return Object.assign(sandbox, {
    server,
    listen: () => server.listen({ onUnhandledRequest }),
    close: () => server.close(),
    // Also drops handlers a test added with server.use().
    reset: async () => {
      server.resetHandlers()
      await resetSandbox()
    },
  })
}

export * from '../index.js'
