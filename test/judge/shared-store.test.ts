import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { createSandboxCore, type JournalEntry, type SandboxCore } from '../../src/index.js'
import {
  createMultiInstanceTarget,
  type MultiInstanceTarget,
} from '../conformance/targets/redis-target.js'
import { startTestRedis, type TestRedis } from '../support/redis-server.js'

// Issue 23 on a shared store: two servers on one real Redis answer as one
// sandbox, so asserting through either sees every instance's requests (the
// journal is read through the state seam; on Redis it lives in the store).
let redis: TestRedis
let target: MultiInstanceTarget
let core: SandboxCore
beforeAll(async () => {
  redis = await startTestRedis()
  target = createMultiInstanceTarget(2, { store: redis.url })
  await target.start()
  core = createSandboxCore({ store: redis.url })
})
afterAll(async () => {
  await core?.disconnect()
  await target?.stop()
  await redis?.dispose()
})
beforeEach(async () => {
  await fetch(`${target.origins[0]}/__sandbox/reset`, { method: 'POST' })
})

const api = (i: number, path: string, init: RequestInit = {}) =>
  fetch(`${target.origins[i]}/v1${path}`, {
    ...init,
    headers: { authorization: 'Bearer sandbox-free', ...init.headers },
  })
const control = async (i: number, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${target.origins[i]}/__sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as unknown }
}

describe('judging a client on a shared store', () => {
  it('expects, filters, reports and covers every instance’s requests through either', async () => {
    await control(0, 'POST', '/clock', { now: '2030-01-01T00:00:00Z' })
    expect((await api(0, '/pets?limit=1')).status).toBe(200)
    expect((await api(1, '/pets/1')).status).toBe(200)
    expect((await api(0, '/pets/2')).status).toBe(200)

    const seqs = ((await control(0, 'GET', '/requests')).body as JournalEntry[]).map((e) => e.seq)
    expect(seqs).toHaveLength(3)
    expect(
      await control(1, 'POST', '/requests/expect', { path: '/v1/pets/:id', times: 2 }),
    ).toEqual({ status: 200, body: { matched: 2, seqs: seqs.slice(1) } })
    const miss = await control(0, 'POST', '/requests/expect', { path: '/v1/pets/:id', times: 3 })
    expect(miss.status).toBe(409)
    const filtered = (await control(1, 'GET', '/requests?operation=getPet')).body as JournalEntry[]
    expect(filtered.map((e) => new URL(e.url).pathname)).toEqual(['/v1/pets/1', '/v1/pets/2'])
    const report = (await control(1, 'GET', '/report')).body as { findings: { seqs: number[] }[] }
    expect(report.findings).toMatchObject([{ rule: 'deprecated-operation', seqs: seqs.slice(1) }])
    const coverage = (await control(0, 'GET', '/coverage')).body as {
      operations: { requests: number }[]
    }
    expect(coverage.operations.map((o) => o.requests)).toEqual([1, 0, 2])

    // The programmatic controls of a third process on the store: asynchronous ones work.
    await expect(core.requests.expect({ operation: 'getPet' }, { times: 2 })).resolves.toHaveLength(
      2,
    )
    expect((await core.report()).findings).toHaveLength(1)
    expect((await core.coverage()).requests).toBe(3)
    expect(await core.requests.find({ method: 'GET' })).toHaveLength(3)
  })

  it('marks a held answer the client gave up on aborted in the store, seen by the other instance', async () => {
    const controller = new AbortController()
    const answered = api(0, '/pets?__scenario=slow&__delay=30000', { signal: controller.signal })
    // Give up once the store's journal holds the request (read through the other instance).
    await vi.waitFor(async () => {
      expect((await control(1, 'GET', '/requests')).body).toHaveLength(1)
    })
    controller.abort()
    await expect(answered).rejects.toThrow()
    await vi.waitFor(async () => {
      expect((await control(1, 'GET', '/requests')).body).toMatchObject([
        { status: 200, aborted: true },
      ])
    })
  })
})
