import { createSharedStoreControls } from '../sandbox/shared-store-controls.js'
import { registerStoreSupport } from '../sandbox/store-support.js'
import { openSharedState } from '../state/shared-store.js'

// Issue 13: the server (Node) opens Redis stores. The Redis state (and its
// client) is imported only when a sandbox is created with the `store` option,
// so the default start-up never loads them; the core names neither the shared
// state nor its controls, so browser bundles never carry them
// (docs/decisions/0014-redis-shared-state.md).
registerStoreSupport({ open: openSharedState, controls: createSharedStoreControls })
