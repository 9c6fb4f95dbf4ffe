/**
 * One sandbox server for bench/redis.ts, in its own process (so two instances
 * really run side by side): in memory, or on the Redis store given as argv[2].
 * Prints its URL on stdout; stops on SIGTERM.
 */
import { createSandboxServer } from '../src/server/index.js'

const store = process.argv[2]
const app = createSandboxServer({
  keys: {
    'bench-enterprise': { plan: 'enterprise', perMinute: 1_000_000_000, perDay: 1_000_000_000_000 },
  },
  ...(store === undefined || store === '' ? {} : { store: { url: store, prefix: 'bench:' } }),
})
const { url } = await app.listen(0, '127.0.0.1')
process.stdout.write(`${url}\n`)
process.on('SIGTERM', () => {
  app.close().then(() => process.exit(0))
})
