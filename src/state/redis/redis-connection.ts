import type { Redis } from 'ioredis'
import { ApiError } from '../../http/api-error.js'
import type { RedisScript } from './redis-script.js'

/** Longest a Redis command may take before the request is answered 503 (ms). */
export const DEFAULT_COMMAND_TIMEOUT_MS = 1_000

const SERVER_UNAVAILABLE = /^(LOADING|BUSY|MASTERDOWN|READONLY|MISCONF|TRYAGAIN|NOREPLICAS)/

/** The answer while Redis cannot be reached: 503 with Retry-After (contract §13). */
export const storeUnavailable = (): ApiError =>
  new ApiError(
    'service_unavailable',
    'The sandbox cannot reach its shared store (Redis). Retry in a moment.',
    { headers: { 'Retry-After': '1' } },
  )

/** An error Redis itself answered (as opposed to a lost connection or a timeout). */
export const isReplyError = (error: unknown): error is Error =>
  error instanceof Error && error.name === 'ReplyError'

/** A Redis failure (connection lost, timeout, a server not ready) becomes the 503; our own errors pass. */
const toStoreError = (error: unknown): unknown => {
  if (error instanceof ApiError || error instanceof TypeError) return error
  if (isReplyError(error) && !SERVER_UNAVAILABLE.test(error.message)) return error
  return storeUnavailable()
}

/** The store's address without a password, for messages. */
export const redactUrl = (url: string): string => url.replace(/\/\/[^@/]*@/, '//***@')

/** One connection to the store and the scripts run on it. */
export interface RedisConnection {
  readonly redis: Redis
  readonly prefix: string
  /** Runs a script (ARGV[1] is the prefix, then `args`); Redis failures become the 503. */
  run(script: RedisScript, args: (string | number)[]): Promise<unknown>
  /** Connects; rejects with a clear message when Redis cannot be reached. */
  connect(): Promise<void>
  close(): Promise<void>
}

/**
 * Opens the client the way decision 0014 describes: no offline queue (fail
 * fast, 503), no retry of a sent command (a create is not idempotent), a
 * command timeout, endless reconnection once connected, none at start.
 *
 * @example
 * const connection = await openRedisConnection({ url, prefix: 'petstore-sandbox:' })
 * await connection.connect()
 */
export const openRedisConnection = async (options: {
  url: string
  prefix: string
  commandTimeoutMs?: number | undefined
}): Promise<RedisConnection> => {
  let everConnected = false
  // Imported here, not at the top: a bundle (the CLI's) keeps it a dynamic import.
  const { Redis } = await import('ioredis')
  const redis = new Redis(options.url, {
    lazyConnect: true,
    // Fail fast while disconnected (503), never queue: a queued create could
    // run long after its client gave up, or twice.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
    connectTimeout: 2_000,
    // Reconnect forever once connected (recovery by itself); not at start (exit 1).
    retryStrategy: (times) => (everConnected ? Math.min(times * 100, 1_000) : null),
  })
  // Connection errors are answered as 503s; ioredis would log them otherwise.
  redis.on('error', () => {})
  const { prefix } = options
  return {
    redis,
    prefix,
    async run(script, args) {
      try {
        try {
          return await redis.evalsha(script.sha, 0, prefix, ...args)
        } catch (error) {
          if (!(isReplyError(error) && /^NOSCRIPT/.test(error.message))) throw error
          return await redis.eval(script.lua, 0, prefix, ...args)
        }
      } catch (error) {
        throw toStoreError(error)
      }
    },
    async connect() {
      try {
        await redis.connect()
      } catch (error) {
        redis.disconnect()
        throw new Error(
          `the Redis store ${redactUrl(options.url)} cannot be reached (${error instanceof Error ? error.message : String(error)}). Start Redis or fix --store.`,
        )
      }
      everConnected = true
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect())
    },
  }
}
