import { setTimeout as wait } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandboxServer } from '../../../src/server/index.js'
import {
  createMultiInstanceTarget,
  type MultiInstanceTarget,
} from '../../conformance/targets/redis-target.js'
import { startTestRedis, type TestRedis } from '../../support/redis-server.js'

// Redis lost and back while two instances serve: clear 503s, no crash, no
// hang, recovery by itself, and no acknowledged create lost (AOF, fsync always).
let redis: TestRedis
let target: MultiInstanceTarget

const KEY = { authorization: 'Bearer sandbox-enterprise' }
const send = async (i: number, method: string, path: string, body?: unknown) => {
  const origin = target.origins[i % target.origins.length] as string
  // Bounded: a request that hangs fails the test instead of stalling it.
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: { ...KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? null : JSON.stringify(body),
    signal: AbortSignal.timeout(5_000),
  })
  const text = await response.text()
  return { status: response.status, headers: response.headers, text }
}

const expectUnavailable = (answer: Awaited<ReturnType<typeof send>>): void => {
  expect(answer.status).toBe(503)
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/)
  expect(JSON.parse(answer.text)).toMatchObject({ code: 'service_unavailable', status: 503 })
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
}

beforeAll(async () => {
  redis = await startTestRedis({ persistence: true })
  target = createMultiInstanceTarget(2, { store: redis.url })
  await target.start()
})
afterAll(async () => {
  await target?.stop()
  await redis?.dispose()
})

describe('Redis lost while serving', () => {
  it('answers 503 service_unavailable with Retry-After (API and control API), then serves again by itself, every acknowledged create kept', async () => {
    const acknowledged: number[] = []
    const create = async (i: number): Promise<number> => {
      const answer = await send(i, 'POST', '/v1/pets', { name: `Pet ${i}`, categoryId: 1 })
      if (answer.status === 201) acknowledged.push((JSON.parse(answer.text) as { id: number }).id)
      else expectUnavailable(answer)
      return answer.status
    }
    // Traffic before, during and after the outage, from both instances.
    let traffic = true
    const statuses: number[] = []
    const background = (async () => {
      for (let i = 0; traffic; i++) {
        statuses.push(await create(i))
        const listed = await send(i + 1, 'GET', '/v1/pets?limit=5')
        if (listed.status !== 200) expectUnavailable(listed)
        statuses.push(listed.status)
      }
    })()
    while (acknowledged.length < 5) await wait(10)

    await redis.stop()
    for (const i of [0, 1]) {
      expectUnavailable(await send(i, 'GET', '/v1/pets'))
      expectUnavailable(await send(i, 'POST', '/v1/pets', { name: 'Lost', categoryId: 1 }))
      expectUnavailable(await send(i, 'GET', '/__sandbox/scenario'))
      expectUnavailable(await send(i, 'GET', '/__sandbox/requests'))
      expectUnavailable(await send(i, 'POST', '/__sandbox/reset'))
      // A session this instance has never seen: still a clear 503.
      expectUnavailable(await send(i, 'GET', '/v1/pets?__session=new-one'))
    }

    await redis.start()
    // Waiting for the client's own reconnection (an outside process, not the sandbox clock).
    for (const i of [0, 1]) {
      let status = 0
      for (let attempt = 0; attempt < 100 && status !== 200; attempt++) {
        status = (await send(i, 'GET', '/v1/pets')).status
        if (status !== 200) await wait(100)
      }
      expect(status).toBe(200)
    }
    const before = acknowledged.length
    while (acknowledged.length < before + 5) await wait(10)
    traffic = false
    await background

    expect(statuses.every((s) => s === 200 || s === 201 || s === 503)).toBe(true)
    // Every acknowledged create is there, on both instances, and no id was handed out twice.
    expect(new Set(acknowledged).size).toBe(acknowledged.length)
    for (const i of [0, 1]) {
      const page = await send(i, 'GET', '/v1/pets?limit=100&status=available')
      const ids = (JSON.parse(page.text) as { id: number }[]).map((p) => p.id)
      for (const id of acknowledged) expect(ids).toContain(id)
    }
  })
})

describe('Redis unreachable at start', () => {
  it('rejects listen() with a clear message', async () => {
    const app = createSandboxServer({ store: `redis://127.0.0.1:${redis.port + 1}/0` })
    await expect(app.listen(0)).rejects.toThrow(
      /Redis store redis:\/\/127\.0\.0\.1:\d+\/0 cannot be reached/,
    )
  })

  it.each([0, 9, 60_001, 1.5, Number.NaN])('refuses a store timeoutMs of %s', (timeoutMs) => {
    expect(() => createSandboxServer({ store: { url: redis.url, timeoutMs } })).toThrow(
      /store timeoutMs .* must be a whole number of ms from 10 to 60000/,
    )
  })

  it.each([-1, 60_001, 2.5, Number.NaN, '10' as unknown as number])(
    'refuses a store journalFlushMs of %s',
    (journalFlushMs) => {
      expect(() => createSandboxServer({ store: { url: redis.url, journalFlushMs } })).toThrow(
        /store journalFlushMs .* must be a whole number of ms from 0 to 60000/,
      )
    },
  )

  it('rejects listen() with a clear message for a Redis Cluster none of whose nodes answers', async () => {
    const port = redis.port + 1
    const app = createSandboxServer({
      store: `redis+cluster://127.0.0.1:${port},127.0.0.1:${port}`,
    })
    await expect(app.listen(0)).rejects.toThrow(
      /Redis store redis\+cluster:\/\/127\.0\.0\.1:\d+,127\.0\.0\.1:\d+ cannot be reached/,
    )
  })

  it.each([
    'redis+cluster://',
    'redis+cluster://host',
    'redis+cluster://host:6379/0',
    'redis+cluster://a:1,,b:2',
  ])('refuses the cluster URL %s', (store) => {
    expect(() => createSandboxServer({ store })).toThrow(/is not a Redis Cluster URL/)
  })

  it('refuses a store that is not a Redis URL', () => {
    expect(() => createSandboxServer({ store: 'http://127.0.0.1:6379' })).toThrow(/not a Redis URL/)
  })
})
