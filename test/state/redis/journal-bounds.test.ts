import { setTimeout as wait } from 'node:timers/promises'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createMultiInstanceTarget,
  type MultiInstanceTarget,
} from '../../conformance/targets/redis-target.js'
import { startTestRedis, type TestRedis } from '../../support/redis-server.js'

// Issue 24, item 1 (its Redis half): the journal on Redis is bounded as in
// memory, per session (journalSize) and for the whole server (journalMaxEntries,
// journalMaxBytes), whatever the sessions, the instances or the size of the requests.
let redis: TestRedis
let admin: Redis
let target: MultiInstanceTarget
const MAX_ENTRIES = 10
const MAX_BYTES = 60_000

const send = async (i: number, path: string, init: RequestInit = {}) => {
  const response = await fetch(`${target.origins[i % target.origins.length]}${path}`, {
    ...init,
    headers: { authorization: 'Bearer sandbox-enterprise', ...init.headers },
  })
  return { status: response.status, json: (await response.json()) as unknown }
}

const journal = async (session: string) =>
  (await send(0, `/__sandbox/requests?__session=${session}`)).json as {
    seq: number
    url: string
    request: { headers: Record<string, string> }
  }[]

/** Sum of every session's journal, once the evictions sent behind the answers have landed. */
const settledTotal = async (sessions: string[], bound: number): Promise<number> => {
  let total = Number.POSITIVE_INFINITY
  // Evictions go out behind the answers: wait for them (Redis, not the sandbox clock).
  for (let attempt = 0; attempt < 50 && total > bound; attempt++) {
    if (attempt > 0) await wait(20)
    const lists = await Promise.all(sessions.map(journal))
    total = lists.reduce((sum, list) => sum + list.length, 0)
  }
  return total
}

beforeAll(async () => {
  redis = await startTestRedis()
  admin = new Redis(redis.url)
  target = createMultiInstanceTarget(2, {
    store: { url: redis.url, prefix: 'bounds:' },
    journalSize: 4,
    journalMaxEntries: MAX_ENTRIES,
    journalMaxBytes: MAX_BYTES,
  })
  await target.start()
})
afterAll(async () => {
  admin?.disconnect()
  await target?.stop()
  await redis?.dispose()
})

describe('the journal on Redis', () => {
  it('keeps the last journalSize entries of a session, whichever instance answered', async () => {
    for (let i = 1; i <= 7; i++) await send(i, `/v1/pets?limit=1&n=${i}&__session=size`)
    const kept = await journal('size')
    expect(kept.map((e) => new URL(e.url).searchParams.get('n'))).toEqual(['4', '5', '6', '7'])
  })

  it('keeps at most journalMaxEntries across every session and instance, the newest', async () => {
    const sessions = ['many-1', 'many-2', 'many-3', 'many-4', 'many-5']
    for (const session of sessions)
      for (let i = 0; i < 4; i++) await send(i, `/v1/pets?limit=1&__session=${session}`)
    expect(await settledTotal(sessions, MAX_ENTRIES)).toBeLessThanOrEqual(MAX_ENTRIES)
    // The newest went nowhere: the last session's four are all there.
    expect(await journal('many-5')).toHaveLength(4)
    expect(Number(await admin.xlen('bounds:{~feed}:requests'))).toBeLessThanOrEqual(MAX_ENTRIES)
  })

  it('keeps at most journalMaxBytes, and cuts long header values and bodies with a marker', async () => {
    const sessions = ['big-1', 'big-2', 'big-3']
    const long = 'x'.repeat(7_000)
    for (const session of sessions)
      for (let i = 0; i < 3; i++)
        await send(i, `/v1/pets?__session=${session}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-long-one': long, 'x-long-two': long },
          body: JSON.stringify({ name: 'Big', categoryId: 1, padding: 'p'.repeat(20_000) }),
        })
    const entry = (await journal('big-3')).at(-1)
    expect(entry?.request.headers['x-long-one']).toMatch(/…\(cut 4952 characters\)$/)
    // Each entry holds about 4 KB of headers and 8 KB of body: 60,000 bytes keep only a few.
    await settledTotal(sessions, 5)
    expect(Number(await admin.get('bounds:{~feed}:bytes'))).toBeLessThanOrEqual(MAX_BYTES)
    const lists = await Promise.all(sessions.map(journal))
    const stored = lists.flat().reduce((sum, e) => sum + JSON.stringify(e).length, 0)
    expect(stored).toBeLessThanOrEqual(MAX_BYTES)
    expect(lists.at(-1)?.length).toBeGreaterThan(0)
  })

  // Issue 31, item 15: reset() empties the journal and numbers on, in memory and on Redis alike
  // (docs/control-api.md), so a seq noted before a reset never names a later request.
  it('numbers entries on across a reset: a seq is never reused', async () => {
    await send(0, '/v1/pets?__session=seq-after-reset')
    const before = (await journal('seq-after-reset')).at(-1)?.seq ?? 0
    expect(before).toBeGreaterThan(0)
    const reset = await fetch(`${target.origins[1]}/__sandbox/reset?__session=seq-after-reset`, {
      method: 'POST',
    })
    expect(reset.status).toBe(204)
    expect(await journal('seq-after-reset')).toEqual([])
    await send(1, '/v1/pets?__session=seq-after-reset')
    expect((await journal('seq-after-reset')).map((e) => e.seq)).toEqual([before + 1])
  })
})
