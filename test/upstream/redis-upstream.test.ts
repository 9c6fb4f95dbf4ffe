import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { killAllChildren } from '../server/spawn-cli.js'
import { startTestRedis, type TestRedis } from '../support/redis-server.js'
import {
  sandboxJournal,
  startSandboxUpstream,
  type UpstreamEntry,
  type UpstreamProcess,
} from '../support/upstream-processes.js'
import { type Front, startFront } from './upstream-front.js'

// Upstream mode on a shared store (a real redis-server): the state seam answers
// asynchronously, and the journal of forwarded requests lives in Redis.
let redis: TestRedis
let upstream: UpstreamProcess
let front: Front

beforeAll(async () => {
  ;[redis, upstream] = await Promise.all([startTestRedis(), startSandboxUpstream(['--seed', '7'])])
  front = await startFront({ store: redis.url, upstream: upstream.url })
}, 60_000)
afterAll(async () => {
  await front?.close()
  await Promise.all([upstream?.stop(), redis?.dispose()])
  killAllChildren()
})

describe('upstream mode on a shared store', () => {
  it('forwards, answers other scenarios itself, journals in Redis, and switches modes per session', async () => {
    const answer = await front.get('/v1/pets/5?__session=r1')
    const [sent] = (await sandboxJournal(upstream)).slice(-1) as [UpstreamEntry]
    expect(sent.url).toBe(`${upstream.url}/pets/5`)
    expect(await answer.text()).toBe(sent.response.body)
    const before = (await sandboxJournal(upstream)).length
    expect((await front.get('/v1/pets?__session=r1&__scenario=unavailable')).status).toBe(503)
    expect((await sandboxJournal(upstream)).length).toBe(before)
    expect((await front.journal('r1')).map((e) => [e.status, e.source])).toEqual([
      [200, 'upstream'],
      [503, 'sandbox'],
    ])

    await fetch(`${front.origin}/__sandbox/mode?__session=r1`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{"mode":"sandbox"}',
    })
    expect((await front.get('/v1/pets/5?__session=r1')).status).toBe(200)
    expect((await sandboxJournal(upstream)).length).toBe(before)
    expect((await front.journal('r1')).at(-1)?.source).toBe('sandbox')
  })
})
