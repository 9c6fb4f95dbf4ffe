import { randomUUID } from 'node:crypto'
import type { Cluster, Redis } from 'ioredis'
import type { RedisConnection } from './redis-connection.js'

/** How often an instance says, in Redis, that it is alive (ms). */
const HEARTBEAT_MS = 2_000
/** An instance not heard of for this long is counted gone (ms). */
const GONE_AFTER_MS = 6_000
/** Longest a read waits for the other instances' entries (ms): one silent that long is busy or gone. */
const BARRIER_TIMEOUT_MS = 500

/**
 * What a read of the journal waits for (decision 0069): every instance
 * holds the entries of its answers for a moment before writing them in one
 * batch, so a read first has every live instance write what it holds.
 */
export interface JournalBarrier {
  /** Subscribes and says this instance is alive; an instance that cannot waits on no one. */
  start(): Promise<void>
  /**
   * Resolves once every live instance has written its entries of `sid`
   * (undefined: of every session), or after a bound. This instance's own are
   * sent first, on the connection the read that follows goes out on.
   */
  wait(sid: string | undefined): Promise<void>
  close(): Promise<void>
}

interface Ask {
  /** The asking instance. */
  o: string
  /** The ask's number there. */
  n: number
  /** The session, or undefined for every one. */
  s?: string
}

/**
 * The barrier over Redis pub/sub: a read publishes an ask on
 * `{~feed}:flush`; every other instance writes what it holds, waits for
 * Redis to have it, then answers on the asker's own channel. Who to wait
 * for: the instances seen alive in `{~feed}:instances` (a sorted set of
 * heartbeats, read every two seconds) and those that said hello since.
 *
 * @example
 * const barrier = createJournalBarrier({ connection, send: journal.sendNow, flushed: journal.written })
 * await barrier.wait('default')
 */
export const createJournalBarrier = (input: {
  connection: RedisConnection
  /** Sends what this instance holds of a session (or of all), without waiting. */
  send(sid: string | undefined): void
  /** Resolves once what this instance sent of a session (or of all) is in Redis. */
  written(sid: string | undefined): Promise<void>
  onError(error: unknown): void
}): JournalBarrier => {
  const { connection } = input
  const { client } = connection
  const id = randomUUID()
  const base = `${connection.prefix}{~feed}:`
  const members = `${base}instances`
  const asks = `${base}flush`
  const answers = (instance: string) => `${base}flushed:${instance}`
  /** The other live instances, as last read or heard. */
  const others = new Set<string>()
  const waiting = new Map<number, { missing: Set<string>; done: () => void }>()
  let asked = 0
  let subscriber: Redis | Cluster | undefined
  let heartbeat: ReturnType<typeof setInterval> | undefined

  const beat = async (): Promise<void> => {
    const now = Date.now()
    const reply = await client
      .multi()
      .zadd(members, now, id)
      .zremrangebyscore(members, '-inf', now - 10 * GONE_AFTER_MS)
      .zrangebyscore(members, now - GONE_AFTER_MS, '+inf')
      .exec()
    const live = reply?.[2]?.[1]
    if (!Array.isArray(live)) return
    others.clear()
    for (const instance of live as string[]) if (instance !== id) others.add(instance)
  }

  const answer = (ask: Ask): void => {
    input.send(ask.s)
    input
      .written(ask.s)
      .then(() => client.publish(answers(ask.o), `${ask.n} ${id}`))
      .catch(() => {})
  }

  const onMessage = (channel: string, message: string): void => {
    if (channel === asks) {
      let ask: Ask | { hello: string } | { bye: string }
      try {
        ask = JSON.parse(message) as typeof ask
      } catch {
        return
      }
      if ('hello' in ask) {
        if (ask.hello !== id) others.add(ask.hello)
      } else if ('bye' in ask) others.delete(ask.bye)
      else if (ask.o !== id) answer(ask)
      return
    }
    // An answer to one of this instance's asks: "n instance".
    const [n, from] = message.split(' ')
    const wait = waiting.get(Number(n))
    if (wait === undefined || from === undefined) return
    wait.missing.delete(from)
    if (wait.missing.size === 0) wait.done()
  }

  return {
    async start() {
      try {
        const sub: Redis | Cluster = connection.cluster
          ? (client as Cluster).duplicate()
          : (client as Redis).duplicate()
        sub.on('error', () => {})
        sub.on('node error', () => {})
        sub.on('message', onMessage)
        await sub.connect()
        await sub.subscribe(asks, answers(id))
        subscriber = sub
        await beat()
        await client.publish(asks, JSON.stringify({ hello: id }))
      } catch (error) {
        // Without its subscription this instance asks no one (a read then
        // sees what the others wrote so far) and answers no one.
        input.onError(error)
      }
      heartbeat = setInterval(() => {
        beat().catch(() => {})
      }, HEARTBEAT_MS)
      heartbeat.unref()
    },
    async wait(sid) {
      input.send(sid)
      if (subscriber === undefined || others.size === 0) return
      const n = ++asked
      let timer: ReturnType<typeof setTimeout> | undefined
      const acked = new Promise<void>((resolve) => {
        waiting.set(n, { missing: new Set(others), done: resolve })
        timer = setTimeout(resolve, BARRIER_TIMEOUT_MS)
      })
      const ask: Ask = sid === undefined ? { o: id, n } : { o: id, n, s: sid }
      client.publish(asks, JSON.stringify(ask)).catch(() => {})
      try {
        await acked
      } finally {
        clearTimeout(timer)
        waiting.delete(n)
      }
    },
    async close() {
      if (heartbeat !== undefined) clearInterval(heartbeat)
      const sub = subscriber
      subscriber = undefined
      if (sub === undefined) return
      await Promise.all([
        client.zrem(members, id).catch(() => {}),
        client.publish(asks, JSON.stringify({ bye: id })).catch(() => {}),
      ])
      await sub.quit().catch(() => sub.disconnect())
    },
  }
}
