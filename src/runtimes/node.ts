import { type SetupServer, setupServer } from 'msw/node'
import { resolveUpstreamFiles } from '../files/resolve-upstream-files.js'
import {
  CREATE_SANDBOX_OPTION_NAMES,
  type CreateSandboxOptions,
  createSandbox,
  type Sandbox,
} from '../handlers/create-sandbox.js'
import { checkOptionNames } from '../sandbox/check-option-names.js'

export interface NodeSandboxOptions<S extends string = never> extends CreateSandboxOptions<S> {
  /**
   * What MSW does with requests no handler answers (default `error`: a test
   * must not reach the network by accident): `'bypass'`, `'warn'`, `'error'`,
   * or msw's callback `(request, print) => void`.
   */
  onUnhandledRequest?: UnhandledRequestStrategy
}

/** msw's own type for it, whichever major of the peer is installed. */
type UnhandledRequestStrategy = NonNullable<
  Parameters<SetupServer['listen']>[0]
>['onUnhandledRequest']

export const NODE_OPTION_NAMES = [
  ...CREATE_SANDBOX_OPTION_NAMES,
  'onUnhandledRequest',
] as const satisfies readonly (keyof NodeSandboxOptions)[]

/** A sandbox with its own MSW `setupServer`, for Node test runners. */
export interface NodeSandbox<S extends string = never> extends Sandbox<S> {
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
export const setupSandbox = <const S extends string = never>(
  options: NodeSandboxOptions<S> = {},
): NodeSandbox<S> => {
  checkOptionNames(options, NODE_OPTION_NAMES, 'set up the sandbox')
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

export {
  type PactSource,
  type WritePactOptions,
  writePact,
} from '../files/write-pact-file.js'
export * from '../index.js'
