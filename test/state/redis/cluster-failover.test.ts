import { setTimeout as wait } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createMultiInstanceTarget,
  type MultiInstanceTarget,
} from '../../conformance/targets/redis-target.js'
import { startTestCluster, type TestCluster } from '../../support/redis-cluster.js'

// A master of a real Redis Cluster crashes (SIGKILL) while two instances
// serve: clear 503s while the failover lasts, recovery by itself once its
// replica is promoted, and no acknowledged create lost (each was held by a
// replica before its 201, WAIT 1).
let cluster: TestCluster
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
  expect(JSON.parse(answer.text)).toMatchObject({ code: 'service_unavailable', status: 503 })
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
}

beforeAll(async () => {
  cluster = await startTestCluster()
  target = createMultiInstanceTarget(2, { store: cluster.url })
  await target.start()
}, 60_000)
afterAll(async () => {
  await target?.stop()
  await cluster?.dispose()
})

describe('a Redis Cluster master fails over while two instances serve', () => {
  it('answers 503 service_unavailable while it lasts, serves again by itself, every acknowledged create kept', async () => {
    const acknowledged: number[] = []
    const statuses: number[] = []
    let traffic = true
    const background = (async () => {
      for (let i = 0; traffic; i++) {
        const created = await send(i, 'POST', '/v1/pets', { name: `Pet ${i}`, categoryId: 1 })
        if (created.status === 201)
          acknowledged.push((JSON.parse(created.text) as { id: number }).id)
        else expectUnavailable(created)
        statuses.push(created.status)
        const listed = await send(i + 1, 'GET', '/v1/pets?limit=5')
        if (listed.status !== 200) expectUnavailable(listed)
        statuses.push(listed.status)
      }
    })()
    while (acknowledged.length < 10) await wait(10)

    // The master of the default session's slot crashes; its replica takes over.
    await cluster.killMaster('petstore-sandbox:{default}:meta')
    // Waiting for the client to find the new master (outside processes, not the sandbox clock).
    for (const i of [0, 1]) {
      let status = 0
      for (let attempt = 0; attempt < 100 && status !== 200; attempt++) {
        status = (await send(i, 'GET', '/v1/pets')).status
        if (status !== 200) await wait(100)
      }
      expect(status).toBe(200)
    }
    const before = acknowledged.length
    while (acknowledged.length < before + 10) await wait(10)
    traffic = false
    await background

    expect(statuses.every((s) => s === 200 || s === 201 || s === 503)).toBe(true)
    // The traffic did meet the failover (a crashed master is noticed after the node timeout).
    expect(statuses).toContain(503)
    expect(new Set(acknowledged).size).toBe(acknowledged.length)
    for (const i of [0, 1]) {
      const ids: number[] = []
      for (let cursor = ''; ; ) {
        const page = await send(i, 'GET', `/v1/pets?limit=100${cursor}`)
        expect(page.status).toBe(200)
        ids.push(...(JSON.parse(page.text) as { id: number }[]).map((p) => p.id))
        const next = /cursor=([^&>]+)/.exec(page.headers.get('link') ?? '')
        if (next === null) break
        cursor = `&cursor=${next[1]}`
      }
      for (const id of acknowledged) expect(ids).toContain(id)
    }
  }, 60_000)
})
