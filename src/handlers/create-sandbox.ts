import { getResponse, type RequestHandler } from 'msw'
import { checkOptionNames } from '../sandbox/check-option-names.js'
import { createSandboxCore, type SandboxCore } from '../sandbox/create-sandbox-core.js'
import { SANDBOX_OPTION_NAMES, type SandboxOptions } from '../sandbox/sandbox-options.js'
import { checkOwnHandlers, type OwnHandler } from './check-own-handlers.js'
import { createMswHandlers } from './create-msw-handlers.js'
import { type OwnHandlerPlan, planOwnHandlers } from './own-operations.js'

/** Options of `createSandbox`: the core's options and your own MSW handlers. */
export interface CreateSandboxOptions<S extends string = never> extends SandboxOptions<S> {
  /**
   * Your own handlers (MSW handlers, or functions `(request) => Response | undefined`),
   * for paths the contract does not define. Below the base path they run
   * inside the sandbox's pipeline (key, quota, session, scenario, journal;
   * decision 0042) unless marked with `publicHandler` or
   * `passthroughHandler`; outside it they run as they are. To override a
   * contract route, put a handler before `sandbox.handlers` (or
   * `server.use()` it) instead. docs/your-endpoints.md.
   */
  handlers?: readonly OwnHandler[]
}

/** Every option `createSandbox` knows (the ones it names when it refuses another). */
export const CREATE_SANDBOX_OPTION_NAMES = [
  ...SANDBOX_OPTION_NAMES,
  'handlers',
] as const satisfies readonly (keyof CreateSandboxOptions)[]

/** A running sandbox: MSW handlers, the runtime-free core, and its controls. */
export interface Sandbox<S extends string = never> extends SandboxCore<S> {
  /** MSW request handlers for `setupServer(...)` / `setupWorker(...)`, your `handlers` option included. */
  readonly handlers: RequestHandler[]
}

// msw is loaded here anyway: a static import keeps a browser app's bundle tree-shaken.
const loadMsw = () => Promise.resolve({ getResponse })

/**
 * Creates a sandbox of the Pet Store API with its MSW handlers.
 *
 * @example
 * import { setupServer } from 'msw/node'
 * const sandbox = createSandbox({ seed: 1, handlers: [http.get('*\/v1/categories', () => HttpResponse.json([]))] })
 * const server = setupServer(...sandbox.handlers)
 */
export const createSandbox = <const S extends string = never>(
  options: CreateSandboxOptions<S> = {},
): Sandbox<S> => {
  checkOptionNames(options, CREATE_SANDBOX_OPTION_NAMES, 'create the sandbox')
  const { handlers: given, ...coreOptions } = Object(options) as CreateSandboxOptions<S>
  const own = checkOwnHandlers(given, 'create the sandbox')
  // Your handlers below the base path run inside the pipeline (decision 0042): planned
  // once the base path is known. Without any, the core gets no additions at all.
  let plan: OwnHandlerPlan | undefined
  // Options that are not an object go to the core as they are: it refuses them with its own message.
  const core = createSandboxCore(
    typeof options === 'object' && options !== null ? coreOptions : options,
    own.length === 0
      ? {}
      : (basePath) => {
          plan = planOwnHandlers(own, basePath, 'create the sandbox', loadMsw)
          return plan
        },
  )
  const handlers = createMswHandlers({
    answer: core.answer,
    basePath: core.basePath,
    origin: core.origin,
    passthrough: plan?.passthrough,
    outside: plan?.outside,
    maxBodyBytes: core.fidelity.maxBodyBytes,
  })
  // Object.assign keeps the core's getters (ready, db.pets) live.
  return Object.assign(core, { handlers })
}
