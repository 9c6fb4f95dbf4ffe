import { registerStoreOpener } from '../state/shared-store.js'

// Issue 13: the server (Node) opens Redis stores. The import runs only when a
// sandbox is created with the `store` option, so the default start-up never
// loads the Redis state or its client; the core never names them, so browser
// bundles never follow them (docs/decisions/0014-redis-shared-state.md).
registerStoreOpener(() => import('../state/redis/create-redis-state.js'))
