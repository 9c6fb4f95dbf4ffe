import type { Cluster, Redis } from 'ioredis'
import { ApiError } from '../../http/api-error.js'
import type { RedisScript } from './redis-script.js'

/** Longest a Redis command may take before the request is answered 503 (ms). */
export const DEFAULT_COMMAND_TIMEOUT_MS = 1_000

const SERVER_UNAVAILABLE =
  /^(LOADING|BUSY|MASTERDOWN|READONLY|MISCONF|TRYAGAIN|NOREPLICAS|CLUSTERDOWN|MOVED|ASK)/

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

/** A Redis failure (connection lost, timeout, a server not ready, a failover) is the 503; our own errors pass. */
const isStoreFailure = (error: unknown): boolean =>
  !(error instanceof ApiError || error instanceof TypeError) &&
  !(isReplyError(error) && !SERVER_UNAVAILABLE.test(error.message))

/** The store's address without a password, for messages. */
export const redactUrl = (url: string): string => url.replace(/\/\/[^@/]*@/, '//***@')

/** The nodes and credentials of a `redis+cluster://[user:password@]host:port[,host:port…]` URL. */
const parseClusterUrl = (url: string) => {
  const match = /^(rediss?)\+cluster:\/\/(?:([^:@/]*)(?::([^@/]*))?@)?([^/?#]+)\/?$/.exec(url)
  if (match === null)
    throw new TypeError(`Failed to open the store: "${redactUrl(url)}" is not a cluster URL.`)
  const nodes = (match[4] as string).split(',').map((node) => {
    const at = node.lastIndexOf(':')
    return { host: node.slice(0, at).replace(/^\[|\]$/g, ''), port: Number(node.slice(at + 1)) }
  })
  const decode = (text: string | undefined) =>
    text === undefined || text === '' ? undefined : decodeURIComponent(text)
  return {
    nodes,
    tls: match[1] === 'rediss',
    username: decode(match[2]),
    password: decode(match[3]),
  }
}

/** One connection to the store (one Redis, or a Redis Cluster) and the scripts run on it. */
export interface RedisConnection {
  /** The client (tests and the benchmark count its commands). */
  readonly client: Redis | Cluster
  readonly prefix: string
  /** True on a Redis Cluster: acknowledged writes then wait for a replica (`WAIT 1`). */
  readonly cluster: boolean
  /**
   * Runs a script on the node that holds `key` (KEYS[1]; ARGV[1] is the
   * prefix, then `args`). A Redis failure, or no answer within the command
   * timeout, becomes the 503.
   */
  run(
    script: RedisScript,
    key: string,
    args: readonly (string | number | Buffer)[],
  ): Promise<unknown>
  /**
   * As `run`, for a write the client is told about (a created pet, a control
   * change): on a cluster it returns once a replica holds it too, so that a
   * failover right after loses nothing acknowledged.
   */
  write(
    script: RedisScript,
    key: string,
    args: readonly (string | number | Buffer)[],
  ): Promise<unknown>
  /** As `run`, not waited on: written behind the answer (the journal, the feed, last-use times). */
  send(script: RedisScript, key: string, args: readonly (string | number | Buffer)[]): void
  /** Connects; rejects with a clear message when Redis cannot be reached. */
  connect(): Promise<void>
  close(): Promise<void>
}

/**
 * Opens the client the way decision 0014 describes: no offline queue (fail
 * fast, 503), no retry of a sent command (a create is not idempotent), a
 * command timeout, endless reconnection once connected, none at start. A
 * `redis+cluster://` URL opens a Redis Cluster (decision 0024): the same, per
 * node, and the slot map refreshed after a failover.
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
  const timeout = options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS
  // Imported here, not at the top: a bundle (the CLI's) keeps it a dynamic import.
  const { Redis, Cluster } = await import('ioredis')
  const cluster = /^rediss?\+cluster:/.test(options.url)
  const nodeOptions = {
    maxRetriesPerRequest: 0,
    commandTimeout: timeout,
    connectTimeout: 2_000,
  }
  let client: Redis | Cluster
  if (cluster) {
    const { nodes, tls, username, password } = parseClusterUrl(options.url)
    client = new Cluster(nodes, {
      lazyConnect: true,
      enableOfflineQueue: false,
      // A command that may have run is never sent again (a create is not
      // idempotent); one refused before it ran (CLUSTERDOWN) is answered 503 too.
      retryDelayOnFailover: 0,
      retryDelayOnClusterDown: 0,
      retryDelayOnTryAgain: 0,
      // After a failover the new master is found within a second.
      slotsRefreshInterval: 1_000,
      slotsRefreshTimeout: timeout,
      clusterRetryStrategy: (times) => (everConnected ? Math.min(times * 100, 1_000) : null),
      redisOptions: {
        ...nodeOptions,
        ...(username === undefined ? {} : { username }),
        ...(password === undefined ? {} : { password }),
        ...(tls ? { tls: {} } : {}),
      },
    })
  } else {
    client = new Redis(options.url, {
      ...nodeOptions,
      lazyConnect: true,
      // Fail fast while disconnected (503), never queue: a queued create could
      // run long after its client gave up, or twice.
      enableOfflineQueue: false,
      // Reconnect forever once connected (recovery by itself); not at start (exit 1).
      retryStrategy: (times) => (everConnected ? Math.min(times * 100, 1_000) : null),
    })
  }
  // Connection errors are answered as 503s; ioredis would log them otherwise.
  client.on('error', () => {})
  client.on('node error', () => {})
  const { prefix } = options

  const evaluate = async (
    script: RedisScript,
    key: string,
    args: readonly (string | number | Buffer)[],
  ): Promise<unknown> => {
    try {
      return await client.evalsha(script.sha, 1, key, prefix, ...args)
    } catch (error) {
      if (!(isReplyError(error) && /^NOSCRIPT/.test(error.message))) throw error
      return await client.eval(script.lua, 1, key, prefix, ...args)
    }
  }
  // One bound per call, whatever the client does meanwhile (a redirection after
  // a failover is another send): the request's answer never waits longer.
  const bounded = <T>(work: Promise<T>): Promise<T> => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('Command timed out')), timeout)
    })
    work.catch(() => {})
    return Promise.race([work, expired]).finally(() => clearTimeout(timer))
  }
  let refreshing = false
  const toStoreError = (error: unknown): unknown => {
    if (!isStoreFailure(error)) return error
    // On a cluster, a failure may be a failover: look for the new master now
    // rather than at the next periodic refresh.
    if (cluster && !refreshing) {
      refreshing = true
      ;(client as Cluster).refreshSlotsCache(() => {
        refreshing = false
      })
    }
    return storeUnavailable()
  }
  const run = async (
    script: RedisScript,
    key: string,
    args: readonly (string | number | Buffer)[],
  ) => {
    try {
      return await (cluster ? bounded(evaluate(script, key, args)) : evaluate(script, key, args))
    } catch (error) {
      throw toStoreError(error)
    }
  }
  return {
    client,
    prefix,
    cluster,
    run,
    async write(script, key, args) {
      if (!cluster) return run(script, key, args)
      // The script, then WAIT on the same connection (keyless: it follows the
      // script to its node): the answer comes once a replica holds the write.
      // A master without a replica (one was just promoted) answers after a
      // quarter of the timeout: the write is acknowledged anyway, kept by the
      // master's AOF, and no failover can happen there until a replica joins.
      const withWait = async (body: 'evalsha' | 'eval') => {
        const pipeline = client.pipeline()
        if (body === 'evalsha') pipeline.evalsha(script.sha, 1, key, prefix, ...args)
        else pipeline.eval(script.lua, 1, key, prefix, ...args)
        pipeline.call('WAIT', 1, Math.max(1, Math.floor(timeout / 4)))
        const [[error, reply] = [new Error('no reply'), undefined]] =
          (await bounded(pipeline.exec())) ?? []
        if (error !== null) throw error
        return reply
      }
      try {
        try {
          return await withWait('evalsha')
        } catch (error) {
          // NOSCRIPT: it did not run; send its text this once.
          if (!(isReplyError(error) && /^NOSCRIPT/.test(error.message))) throw error
          return await withWait('eval')
        }
      } catch (error) {
        throw toStoreError(error)
      }
    },
    send(script, key, args) {
      evaluate(script, key, args).catch(() => {})
    },
    async connect() {
      try {
        if (cluster) {
          await new Promise<void>((resolve, reject) => {
            const cleanUp = () => {
              client.off('ready', onReady)
              client.off('end', onEnd)
            }
            const onReady = () => {
              cleanUp()
              resolve()
            }
            const onEnd = () => {
              cleanUp()
              reject(new Error('no node of the cluster answered'))
            }
            client.once('ready', onReady)
            client.once('end', onEnd)
            client.connect().catch((error: unknown) => {
              cleanUp()
              reject(error)
            })
          })
        } else await client.connect()
      } catch (error) {
        client.disconnect()
        throw new Error(
          `the Redis store ${redactUrl(options.url)} cannot be reached (${error instanceof Error ? error.message : String(error)}). Start Redis or fix --store.`,
        )
      }
      everConnected = true
    },
    async close() {
      await client.quit().catch(() => client.disconnect())
    },
  }
}
