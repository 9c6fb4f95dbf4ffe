import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { Redis } from 'ioredis'
import { freePort, startTestRedis, type TestRedis } from './redis-server.js'

const run = promisify(execFile)

/** A Redis Cluster this test started: three masters, three replicas, on free loopback ports. */
export interface TestCluster {
  /** `redis+cluster://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3` (the three first masters). */
  readonly url: string
  /** Every node, masters and replicas (their roles change with a failover). */
  readonly nodes: readonly TestRedis[]
  /** The node that serves `key` now (the master of its slot). */
  masterOf(key: string): Promise<TestRedis>
  /**
   * Fails over the master of `key` the hard way: kills it (SIGKILL, a crash)
   * and waits until its replica was promoted and the cluster is whole again.
   * Resolves with the killed node.
   */
  killMaster(key: string): Promise<TestRedis>
  /** Waits until every live node says `cluster_state:ok` and every replica is in sync. */
  settled(): Promise<void>
  /** Stops every node and removes their directories. */
  dispose(): Promise<void>
}

const poll = async (what: string, check: () => Promise<boolean>, ms = 20_000): Promise<void> => {
  const end = Date.now() + ms
  for (;;) {
    if (await check().catch(() => false)) return
    // Waiting for outside processes (redis-server), not for the sandbox clock.
    if (Date.now() > end) throw new Error(`The test cluster did not ${what} within ${ms} ms.`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

const info = async (port: number, section: string): Promise<string> => {
  const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0 })
  client.on('error', () => {})
  try {
    await client.connect()
    return section === 'cluster'
      ? ((await client.call('CLUSTER', 'INFO')) as string)
      : await client.info(section)
  } finally {
    client.disconnect()
  }
}

/**
 * Starts a real Redis Cluster of Debian's `redis-server` (never a mock): six
 * nodes on free loopback ports, started in parallel, joined by
 * `redis-cli --cluster create … --cluster-replicas 1`, with a one-second node
 * timeout so that a failover takes a few seconds. With `persistence`, AOF
 * with `appendfsync always` on every node, as docs/several-instances.md
 * recommends (slower: every write waits for the disk).
 *
 * @example
 * const cluster = await startTestCluster()
 * afterAll(() => cluster.dispose())
 */
export const startTestCluster = async (
  options: { persistence?: boolean } = {},
): Promise<TestCluster> => {
  const nodes = await Promise.all(
    Array.from({ length: 6 }, async () =>
      startTestRedis({
        persistence: options.persistence === true,
        args: [
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          'nodes.conf',
          '--cluster-node-timeout',
          '1000',
          '--cluster-port',
          String(await freePort()),
          // A replica syncs at once (Redis waits 5 s by default, for more replicas to join).
          '--repl-diskless-sync-delay',
          '0',
        ],
      }),
    ),
  )
  const alive = new Set(nodes)
  const settled = async (): Promise<void> => {
    await poll('settle', async () => {
      for (const node of alive) {
        if (!(await info(node.port, 'cluster')).includes('cluster_state:ok')) return false
        const replication = await info(node.port, 'replication')
        if (replication.includes('role:slave') && !replication.includes('master_link_status:up'))
          return false
      }
      return true
    })
  }
  try {
    await run(
      'redis-cli',
      [
        '--cluster',
        'create',
        ...nodes.map((n) => `127.0.0.1:${n.port}`),
        '--cluster-replicas',
        '1',
        '--cluster-yes',
      ],
      { timeout: 30_000 },
    )
    await settled()
  } catch (error) {
    await Promise.all(nodes.map((n) => n.dispose()))
    throw error
  }
  const masterOf = async (key: string): Promise<TestRedis> => {
    const live = [...alive][0] as TestRedis
    const client = new Redis({ port: live.port, host: '127.0.0.1', maxRetriesPerRequest: 0 })
    try {
      const slot = (await client.call('CLUSTER', 'KEYSLOT', key)) as number
      const ranges = (await client.call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][]
      const range = ranges.find(([from, to]) => slot >= from && slot <= to)
      const port = range?.[2][1]
      const node = nodes.find((n) => n.port === port)
      if (node === undefined) throw new Error(`No master serves slot ${slot}.`)
      return node
    } finally {
      client.disconnect()
    }
  }
  return {
    url: `redis+cluster://${nodes
      .slice(0, 3)
      .map((n) => `127.0.0.1:${n.port}`)
      .join(',')}`,
    nodes,
    masterOf,
    async killMaster(key) {
      const master = await masterOf(key)
      alive.delete(master)
      await master.stop('SIGKILL')
      await poll('fail over', async () => (await masterOf(key)) !== master)
      await settled()
      return master
    },
    settled,
    async dispose() {
      await Promise.all(nodes.map((n) => n.dispose()))
    },
  }
}
