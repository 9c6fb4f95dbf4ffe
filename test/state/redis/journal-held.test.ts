import { setTimeout as wait } from 'node:timers/promises'
import { Cluster, Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandboxServer, type SandboxServer } from '../../../src/server/index.js'
import {
  createMultiInstanceTarget,
  type MultiInstanceTarget,
} from '../../conformance/targets/redis-target.js'
import { startTestCluster, type TestCluster } from '../../support/redis-cluster.js'
import { startTestRedis, type TestRedis } from '../../support/redis-server.js'

// Decision 0069: an instance on Redis holds its journal entries before writing
// them in one batch, and leaves out those the write would trim at once; every
// read first has every live instance write what it holds. Here the instances
// hold them for a minute, so only the barrier can make a read find them: a
// control call after an answer finds its entry through any instance, on one
// Redis and on a Redis Cluster.
const HOLD_MS = 60_000
const KEY = { authorization: 'Bearer sandbox-enterprise' }

interface Store {
  url: string
  admin(): Redis | Cluster
  dispose(): Promise<void>
}

const single = async (): Promise<Store> => {
  const redis: TestRedis = await startTestRedis()
  return {
    url: redis.url,
    admin: () => new Redis(redis.url),
    dispose: () => redis.dispose(),
  }
}

const cluster = async (): Promise<Store> => {
  const started: TestCluster = await startTestCluster()
  return {
    url: started.url,
    admin: () =>
      new Cluster(
        started.url
          .replace(/^redis\+cluster:\/\//, '')
          .split(',')
          .map((node) => ({ host: node.split(':')[0], port: Number(node.split(':')[1]) })),
      ),
    dispose: () => started.dispose(),
  }
}

describe.each([
  ['one Redis', single],
  ['a Redis Cluster', cluster],
])('journal entries held by the instance that answered, on %s', (_name, open) => {
  let store: Store
  let admin: Redis | Cluster
  let target: MultiInstanceTarget
  let a: string
  let b: string

  beforeAll(async () => {
    store = await open()
    admin = store.admin()
    target = createMultiInstanceTarget(3, {
      store: { url: store.url, prefix: 'held:', journalFlushMs: HOLD_MS },
      journalSize: 4,
    })
    await target.start()
    a = target.origins[0] as string
    b = target.origins[1] as string
  }, 60_000)
  afterAll(async () => {
    admin?.disconnect()
    await target?.stop()
    await store?.dispose()
  })

  const get = (origin: string, path: string) => fetch(`${origin}${path}`, { headers: KEY })
  const stored = (session: string) => admin.zcard(`held:{${session}}:journal`)

  it('finds an answer of one instance through another, though it was held', async () => {
    const answer = await get(a, '/v1/pets?limit=2&__session=found')
    await answer.arrayBuffer()
    const id = answer.headers.get('request-id') as string
    // Held by the instance that answered: not in Redis yet.
    expect(await stored('found')).toBe(0)
    const look = await get(b, `/__sandbox/requests?requestId=${id}&__session=found`)
    const found = (await look.json()) as { requestId: string; instance: string }[]
    expect(found.map((e) => [e.requestId, e.instance])).toEqual([[id, 'instance-0']])
    expect(await stored('found')).toBe(1)
  })

  it('gives every reader the answers of every instance, in order, as the report and sessions count them', async () => {
    const origins = target.origins
    for (let i = 0; i < 3; i++) {
      const answer = await get(origins[i] as string, `/v1/pets?limit=1&n=${i}&__session=every`)
      await answer.arrayBuffer()
    }
    const journal = (await (await get(b, '/__sandbox/requests?__session=every')).json()) as {
      url: string
      instance: string
    }[]
    expect(journal.map((e) => [new URL(e.url).searchParams.get('n'), e.instance])).toEqual([
      ['0', 'instance-0'],
      ['1', 'instance-1'],
      ['2', 'instance-2'],
    ])
    const sessions = (await (await get(a, '/__sandbox/sessions')).json()) as {
      id: string
      requests: number
    }[]
    expect(sessions.find((s) => s.id === 'every')?.requests).toBe(3)
    // The dashboard's feed, through the third instance.
    const third = target.apps[2] as (typeof target.apps)[number]
    const recent = await third.sandbox.state.recentRequests(undefined, 100)
    const ours = recent.entries.filter((e) => e.session === 'every')
    expect(ours.map((e) => new URL(e.url).searchParams.get('n'))).toEqual(['0', '1', '2'])
  })

  it('writes only what the session keeps: the newest journalSize, whichever instance answered', async () => {
    // Twelve answers through one instance, three through another: journalSize is 4.
    for (let i = 1; i <= 15; i++) {
      const origin = i % 5 === 0 ? b : a
      const answer = await get(origin, `/v1/pets?limit=1&n=${i}&__session=kept`)
      await answer.arrayBuffer()
    }
    const journal = (await (await get(b, '/__sandbox/requests?__session=kept')).json()) as {
      url: string
    }[]
    expect(journal.map((e) => new URL(e.url).searchParams.get('n'))).toEqual([
      '12',
      '13',
      '14',
      '15',
    ])
    expect(await stored('kept')).toBe(4)
    // What went to Redis at all (the feed counts each write's entries): the first instance's
    // newest four of its twelve, the other's three; the rest were never encoded.
    const items = await admin.xrange('held:{~feed}:requests', '-', '+')
    const sent = items
      .map(([, fields]) =>
        Object.fromEntries(fields.flatMap((f, i) => (i % 2 === 0 ? [[f, fields[i + 1]]] : []))),
      )
      .filter((f) => f.s === 'kept')
      .reduce((sum, f) => sum + Number(f.c), 0)
    expect(sent).toBe(7)
  })

  it('keeps a refusal before its round trip in the order it was answered', async () => {
    await (await get(a, '/v1/pets?limit=1&__session=order')).arrayBuffer()
    // No key: refused before the round trip, numbered by Redis when written.
    await (await fetch(`${b}/v1/pets?__session=order&__scenario=default`)).arrayBuffer()
    await (await get(a, '/v1/pets?limit=1&__session=order')).arrayBuffer()
    const journal = (await (await get(b, '/__sandbox/requests?__session=order')).json()) as {
      status: number
    }[]
    expect(journal.map((e) => e.status)).toEqual([200, 401, 200])
  })

  it('keeps what it held of a session dropped since out of the session opened again under its name', async () => {
    await (await get(a, '/v1/pets?limit=1&old=1&__session=again')).arrayBuffer()
    await (await get(a, '/v1/pets?limit=1&old=2&__session=again')).arrayBuffer()
    // Dropped through another instance while the first still holds both entries.
    const dropped = await fetch(`${b}/__sandbox/sessions/again`, { method: 'DELETE' })
    expect(dropped.status).toBe(204)
    await (await get(a, '/v1/pets?limit=1&new=1&__session=again')).arrayBuffer()
    const journal = (await (await get(b, '/__sandbox/requests?__session=again')).json()) as {
      seq: number
      url: string
    }[]
    expect(journal.map((e) => [e.seq, new URL(e.url).search])).toEqual([
      [1, '?limit=1&new=1&__session=again'],
    ])
  })

  it('writes what it holds when it stops', async () => {
    const last = target.apps[2] as (typeof target.apps)[number]
    const third = target.origins[2] as string
    await (await get(third, '/v1/pets?limit=1&__session=stopping')).arrayBuffer()
    expect(await stored('stopping')).toBe(0)
    await last.close()
    expect(await stored('stopping')).toBe(1)
  })
})

describe('an instance whose Redis user may not use pub/sub', () => {
  let redis: TestRedis
  let admin: Redis
  const apps: SandboxServer[] = []

  beforeAll(async () => {
    redis = await startTestRedis()
    admin = new Redis(redis.url)
    // Redis 7 gives a new ACL user no channels: SUBSCRIBE is refused (NOPERM).
    await admin.call(
      'ACL',
      'SETUSER',
      'no-channels',
      'on',
      '>secret-pass',
      '~*',
      '+@all',
      'resetchannels',
    )
  })
  afterAll(async () => {
    admin?.disconnect()
    await Promise.all(apps.map((app) => app.close()))
    await redis?.dispose()
  })

  it('writes its entries in the turn that answered, so a read through another instance finds them', async () => {
    const restricted = redis.url.replace('redis://', 'redis://no-channels:secret-pass@')
    const errors: unknown[] = []
    const open = async (url: string, instance: string) => {
      const app = createSandboxServer({
        store: { url, prefix: 'acl:', journalFlushMs: HOLD_MS },
        instance,
        onError: (error) => errors.push(error),
      })
      apps.push(app)
      return (await app.listen(0, '127.0.0.1')).url
    }
    const answering = await open(restricted, 'restricted')
    const reading = await open(redis.url, 'reading')
    expect(String(errors[0])).toMatch(/NOPERM/)
    const answer = await fetch(`${answering}/v1/pets?limit=1&__session=acl`, { headers: KEY })
    await answer.arrayBuffer()
    // Written behind the answer, not held a minute (Redis's own time, not the sandbox clock).
    let stored = 0
    for (let attempt = 0; attempt < 50 && stored === 0; attempt++) {
      if (attempt > 0) await wait(20)
      stored = await admin.zcard('acl:{acl}:journal')
    }
    expect(stored).toBe(1)
    const look = await fetch(`${reading}/__sandbox/requests?__session=acl`)
    const found = (await look.json()) as { instance: string }[]
    expect(found.map((e) => e.instance)).toEqual(['restricted'])
  })
})
