import { randomUUID } from 'node:crypto'
import type { Cluster, Redis } from 'ioredis'
import type { RedisConnection } from './redis-connection.js'
import { defineScript } from './redis-script.js'

/** How often an instance says, in Redis, that it is alive (ms). */
const HEARTBEAT_MS = 2_000
/** An instance not heard of for this long is counted gone (ms). */
const GONE_AFTER_MS = 6_000
/** Longest a read waits for the other instances' entries (ms): one silent that long is busy or gone. */
const BARRIER_TIMEOUT_MS = 500

/**
 * A heartbeat: this instance alive now by Redis's clock (instances' own clocks
 * may differ), the long-gone ones dropped, and those alive returned.
 * KEYS[1]: the set; ARGV: prefix, instance, goneAfterMs.
 */
const HEARTBEAT_SCRIPT = defineScript(
  'heartbeat',
  `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local gone = tonumber(ARGV[3])
redis.call('ZADD', KEYS[1], now, ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - 10 * gone)
return redis.call('ZRANGEBYSCORE', KEYS[1], now - gone, '+inf')
`,
)

/**
 * What a read of the journal waits for (decision 0069): every instance
 * holds the entries of its answers for a moment before writing them in one
 * batch, so a read first has every live instance write what it holds.
 */
export interface JournalBarrier {
  /**
   * Subscribes and says this instance is alive. False when it cannot
   * subscribe (a Redis user without pub/sub rights): it then asks and
   * answers no one, and its journal writes in the turn that answered.
   */
  start(): Promise<boolean>
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
  /** Hellos and goodbyes heard lately (local time): a heartbeat read sent before them does not undo them. */
  const heard = new Map<string, { at: number; here: boolean }>()
  const waiting = new Map<number, { missing: Set<string>; done: () => void }>()
  let asked = 0
  let subscriber: Redis | Cluster | undefined
  let heartbeat: ReturnType<typeof setInterval> | undefined

  const beat = async (): Promise<void> => {
    const live = (await connection.run(HEARTBEAT_SCRIPT, members, [id, GONE_AFTER_MS])) as string[]
    const now = Date.now()
    others.clear()
    for (const instance of live) if (instance !== id) others.add(instance)
    for (const [instance, news] of heard) {
      if (now - news.at > GONE_AFTER_MS) heard.delete(instance)
      else if (news.here) others.add(instance)
      else others.delete(instance)
    }
  }

  const answer = (ask: Ask): void => {
    input.send(ask.s)
    input
      .written(ask.s)
      .then(() => client.publish(answers(ask.o), `${ask.n} ${id}`))
      .catch(() => {})
  }

  /** An instance that left answers no more asks: those waiting for it stop waiting. */
  const left = (instance: string): void => {
    others.delete(instance)
    for (const wait of waiting.values()) {
      wait.missing.delete(instance)
      if (wait.missing.size === 0) wait.done()
    }
  }

  const onMessage = (channel: string, message: string): void => {
    if (channel === asks) {
      let ask: unknown
      try {
        ask = JSON.parse(message)
      } catch {
        return
      }
      if (typeof ask !== 'object' || ask === null) return
      if ('hello' in ask && typeof ask.hello === 'string') {
        if (ask.hello === id) return
        heard.set(ask.hello, { at: Date.now(), here: true })
        others.add(ask.hello)
      } else if ('bye' in ask && typeof ask.bye === 'string') {
        heard.set(ask.bye, { at: Date.now(), here: false })
        left(ask.bye)
      } else if ('o' in ask && typeof ask.o === 'string' && ask.o !== id && 'n' in ask)
        answer(ask as Ask)
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
      const sub: Redis | Cluster = connection.cluster
        ? (client as Cluster).duplicate()
        : (client as Redis).duplicate()
      sub.on('error', () => {})
      sub.on('node error', () => {})
      sub.on('message', onMessage)
      try {
        await sub.connect()
        await sub.subscribe(asks, answers(id))
        await beat()
        await client.publish(asks, JSON.stringify({ hello: id }))
      } catch (error) {
        // Without its subscription this instance asks no one and answers no
        // one, and is not counted alive (the others would wait for it).
        sub.disconnect()
        await client.zrem(members, id).catch(() => {})
        input.onError(error)
        return false
      }
      subscriber = sub
      heartbeat = setInterval(() => {
        beat().catch(() => {})
      }, HEARTBEAT_MS)
      heartbeat.unref()
      return true
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
