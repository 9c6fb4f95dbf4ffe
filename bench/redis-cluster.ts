/**
 * Redis Cluster (issue 22): one instance on a Redis Cluster (three masters,
 * three replicas, on this machine) against one instance on one Redis, per
 * request: throughput, the mean time a request takes under the same load,
 * and the Redis commands each request costs on the cluster (MONITOR on every
 * master). Creates wait for a replica (WAIT 1) on the cluster: the price of
 * losing no acknowledged pet in a failover.
 */
import type { ChildProcess } from 'node:child_process'
import { Redis } from 'ioredis'
import { startTestCluster } from '../test/support/redis-cluster.js'
import { startTestRedis } from '../test/support/redis-server.js'
import { countCommands, load, startInstance, stop } from './redis.js'

const CONNECTIONS = 16
const HEADERS = { authorization: 'Bearer bench-enterprise', 'content-type': 'application/json' }

const masters = async (ports: readonly number[]): Promise<string[]> => {
  const urls: string[] = []
  for (const port of ports) {
    const client = new Redis({ port, host: '127.0.0.1' })
    const role = (await client.call('ROLE')) as [string]
    if (role[0] === 'master') urls.push(`redis://127.0.0.1:${port}/0`)
    client.disconnect()
  }
  return urls
}

const list = '/v1/pets?limit=20'

/** One instance on one Redis against one on the cluster: throughput and time a request. */
const compare = async (
  setting: string,
  single: { url: string },
  clustered: { url: string },
): Promise<void> => {
  for (const { url } of [single, clustered]) await load([`${url}${list}`], 'GET')
  for (const [what, method, path, body] of [
    ['list (GET /v1/pets?limit=20)', 'GET', list, ''],
    [
      'create (POST /v1/pets)',
      'POST',
      '/v1/pets',
      JSON.stringify({ name: 'Bench', categoryId: 1 }),
    ],
  ] as const) {
    const one = await load([`${single.url}${path}`], method, body)
    const many = await load([`${clustered.url}${path}`], method, body)
    // A closed loop of CONNECTIONS clients: each request's mean time is CONNECTIONS / throughput.
    const ms = (rps: number) => ((CONNECTIONS / rps) * 1000).toFixed(2)
    console.log(
      `${what}, one instance, ${setting}: one Redis ${one.rps.toFixed(0)} req/s (${ms(one.rps)} ms a request); cluster ${many.rps.toFixed(0)} req/s (${ms(many.rps)} ms a request) = ${(many.rps / one.rps).toFixed(2)}x one Redis (errors: ${one.errors}/${many.errors})`,
    )
  }
}

export const run = async (): Promise<void> => {
  const redis = await startTestRedis()
  const cluster = await startTestCluster()
  const durableRedis = await startTestRedis({ persistence: true })
  const durableCluster = await startTestCluster({ persistence: true })
  const all: ChildProcess[] = []
  try {
    const single = await startInstance(redis.url)
    const clustered = await startInstance(cluster.url)
    const durableSingle = await startInstance(durableRedis.url)
    const durableClustered = await startInstance(durableCluster.url)
    all.push(single.child, clustered.child, durableSingle.child, durableClustered.child)
    await compare('no persistence', single, clustered)
    await compare('AOF appendfsync always on every node', durableSingle, durableClustered)

    const N = 200
    const nodes = await masters(cluster.nodes.map((n) => n.port))
    for (const [what, method, path, body] of [
      ['list', 'GET', list, undefined],
      ['create', 'POST', '/v1/pets', JSON.stringify({ name: 'Counted', categoryId: 1 })],
    ] as const) {
      const totals = new Map<string, number>()
      // MONITOR every master at once: a request's commands may go to several.
      let release: () => void = () => {}
      const done = new Promise<void>((resolve) => {
        release = resolve
      })
      const counting = nodes.map((url) => countCommands(url, () => done))
      await new Promise((r) => setTimeout(r, 200))
      for (let i = 0; i < N; i++) {
        const response = await fetch(`${clustered.url}${path}`, { method, headers: HEADERS, body })
        await response.text()
      }
      release()
      for (const seen of await Promise.all(counting))
        for (const [name, count] of seen) totals.set(name, (totals.get(name) ?? 0) + count)
      const per = [...totals].map(([name, count]) => `${name} ${(count / N).toFixed(2)}`).join(', ')
      const total = [...totals.values()].reduce((a, b) => a + b, 0) / N
      // Behind the answer: the journal, its budget, last-use times; WAIT rides with create.
      const notWaited = ['record', 'ledger', 'evict', 'register', 'WAIT']
        .map((name) => totals.get(name) ?? 0)
        .reduce((a, b) => a + b, 0)
      console.log(
        `Redis Cluster commands per ${what} request (one instance, ${N} requests, every master): ${total.toFixed(2)} (${per}); awaited round trips: ${(total - notWaited / N).toFixed(2)} (WAIT is pipelined with the create; the journal, its budget and last-use times go behind the answer)`,
      )
    }
  } finally {
    await stop(all)
    await Promise.all([cluster, durableCluster, redis, durableRedis].map((r) => r.dispose()))
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run()
