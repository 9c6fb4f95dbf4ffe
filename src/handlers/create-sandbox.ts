import type { HttpHandler } from 'msw'
import { createSandboxCore, type SandboxCore } from '../sandbox/create-sandbox-core.js'
import type { SandboxOptions } from '../sandbox/sandbox-options.js'
import { createMswHandlers } from './create-msw-handlers.js'

/** A running sandbox: MSW handlers, the runtime-free core, and its controls. */
export interface Sandbox extends SandboxCore {
  /** MSW request handlers for `setupServer(...)` / `setupWorker(...)`. */
  readonly handlers: HttpHandler[]
}

/**
 * Creates a sandbox of the Pet Store API with its MSW handlers.
 *
 * @example
 * import { setupServer } from 'msw/node'
 * const sandbox = createSandbox({ seed: 1 })
 * const server = setupServer(...sandbox.handlers)
 */
export const createSandbox = (options: SandboxOptions = {}): Sandbox => {
  const core = createSandboxCore(options)
  const handlers = createMswHandlers({
    handle: core.handle,
    basePath: core.basePath,
    origin: core.origin,
  })
  // Object.assign keeps the core's getters (ready, db.pets) live.
  return Object.assign(core, { handlers })
}
