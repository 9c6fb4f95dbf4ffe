import { setTimeout as wait } from 'node:timers/promises'
import { Redis } from 'ioredis'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createSandboxServer, type SandboxServer } from '../../../src/server/index.js'
import {
  createMultiInstanceTarget,
  type MultiInstanceTarget,
} from '../../conformance/targets/redis-target.js'
import { startTestRedis, type TestRedis } from '../../support/redis-server.js'

// Issue 24, item 4: the store loses its data (FLUSHALL, or a restart without
// persistence) under two running instances. Nothing of the lost state is
// trusted again: each session's epoch is drawn at random, so a session
// created anew never looks like the one cached; the store's seed is claimed
// again by the first instance that notices, and an instance seeded otherwise
// is refused whenever the store holds another seed.
let redis: TestRedis
let admin: Redis
let target: MultiInstanceTarget
const others: SandboxServer[] = []

const call = async (i: number, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${target.origins[i]}${path}`, {
    method,
    headers: {
      authorization: 'Bearer sandbox-pro',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? null : JSON.stringify(body),
    signal: AbortSignal.timeout(5_000),
  })
  const text = await response.text()
  return {
    status: response.status,
    headers: response.headers,
    json: (text === '' ? undefined : JSON.parse(text)) as unknown,
  }
}

/** Waits for the instance's own reconnection (an outside process, not the sandbox clock). */
const serving = async (i: number): Promise<void> => {
  for (let attempt = 0; attempt < 100; attempt++) {
    if ((await call(i, 'GET', '/v1/pets?limit=1')).status === 200) return
    await wait(100)
  }
  throw new Error(`Instance ${i} did not serve again.`)
}

beforeAll(async () => {
  redis = await startTestRedis()
  admin = new Redis(redis.url)
  target = createMultiInstanceTarget(2, { store: redis.url, seed: 1 })
  await target.start()
})
afterAll(async () => {
  admin?.disconnect()
  await target?.stop()
  await redis?.dispose()
})
beforeEach(async () => {
  await serving(0)
  await serving(1)
  await call(0, 'POST', '/__sandbox/reset')
})
afterEach(async () => {
  await Promise.all(others.splice(0).map((app) => app.close()))
})

const lose = {
  FLUSHALL: async () => {
    await admin.flushall()
  },
  'a restart without persistence': async () => {
    await redis.stop()
    await redis.start()
  },
}

describe('the store loses its data under two instances', () => {
  it.each(Object.keys(lose) as (keyof typeof lose)[])(
    'reads one pet id as one pet through both after %s',
    async (how) => {
      // From an empty store, as after a first start: `default` is created again
      // through B, then read through A (so both hold its first version).
      await admin.flushall()
      await serving(1)
      await serving(0)
      for (const name of ['Before 26', 'Before 27'])
        expect((await call(0, 'POST', '/v1/pets', { name, categoryId: 1 })).status).toBe(201)
      // Both instances hold pet 26 in their caches.
      for (const i of [0, 1])
        expect((await call(i, 'GET', '/v1/pets/26')).json).toMatchObject({ name: 'Before 26' })

      await lose[how]()
      await serving(1)
      const created = await call(1, 'POST', '/v1/pets', { name: 'After', categoryId: 2 })
      expect(created.json).toMatchObject({ id: 26, name: 'After' })
      for (const i of [0, 1]) {
        expect((await call(i, 'GET', '/v1/pets/26')).json).toMatchObject({ name: 'After' })
        expect((await call(i, 'GET', '/v1/pets/27')).status).toBe(404)
        const page = await call(i, 'GET', '/v1/pets?limit=100')
        expect(page.headers.get('x-total-count')).toBe('26')
      }
    },
  )

  it('refuses an instance with another seed after a flush, once the store was claimed again', async () => {
    await admin.flushall()
    // The next request through either instance notices and claims the store for seed 1.
    expect((await call(0, 'GET', '/v1/pets?limit=1')).status).toBe(200)
    const app = createSandboxServer({ store: redis.url, seed: 2 })
    others.push(app)
    await expect(app.listen(0, '127.0.0.1')).rejects.toThrow(/other seeded pets/)
  })

  it('answers 503 naming the seed when an instance with another seed claimed the emptied store first, and serves again once it is emptied', async () => {
    // The seed-2 instance must claim the emptied store before the running ones notice the
    // flush. On a loaded machine one of them sometimes claimed it first (issue 31, item 9: the
    // start then failed with "other seeded pets"): flush and start again until it wins.
    const claimFirst = async (attempt = 0): Promise<SandboxServer> => {
      await admin.flushall()
      const app = createSandboxServer({ store: redis.url, seed: 2 })
      try {
        await app.listen(0, '127.0.0.1')
        return app
      } catch (error) {
        await app.close().catch(() => undefined)
        if (attempt >= 20 || !/other seeded pets/.test(String(error))) throw error
        return claimFirst(attempt + 1)
      }
    }
    others.push(await claimFirst())
    for (const i of [0, 1]) {
      const refused = await call(i, 'GET', '/v1/pets?limit=1')
      expect(refused.status).toBe(503)
      expect(refused.json).toMatchObject({ code: 'service_unavailable' })
      expect((refused.json as { message: string }).message).toMatch(/other seeded pets/)
    }
    await Promise.all(others.splice(0).map((other) => other.close()))
    await admin.flushall()
    await serving(0)
    await serving(1)
  })
})
