import type { openSharedState } from '../state/shared-store.js'
import type { SessionControls } from './session-controls.js'
import type { createSharedStoreControls } from './shared-store-controls.js'

/** @internal What the `store` option needs: opening a shared state and controls on it. */
export interface StoreSupport {
  open: typeof openSharedState
  controls: (input: Parameters<typeof createSharedStoreControls>[0]) => SessionControls<string>
}

let support: StoreSupport | undefined

/**
 * @internal Not part of the published API.
 * Makes the `store` option available: the Node-only server module registers
 * the shared state and its controls here, so that the core (which browsers
 * bundle too) never names them, and a bundler never follows them there.
 *
 * @example
 * registerStoreSupport({ open: openSharedState, controls: createSharedStoreControls })
 */
export const registerStoreSupport = (registered: StoreSupport): void => {
  support = registered
}

/** The registered store support; throws a TypeError when none is (a browser, or the core alone). */
export const storeSupport = (): StoreSupport => {
  if (support === undefined)
    throw new TypeError(
      'Failed to create the sandbox: the store option needs Node and the server module. Import createSandboxServer from "petstore-sandbox/server" (it opens Redis stores), or run the CLI with --store.',
    )
  return support
}
