import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { ClientReport, RuleId } from '../../src/index.js'
import { createSandboxServer } from '../../src/server/index.js'

// Issue 37 item 2, proof through the real journal: requests sent at once over real
// sockets to the standalone server (a page that loads three panels), the sandbox clock
// set and moved through the control API. Contract §18: a request sent before the failing
// answer reached the client (the same instant on the sandbox clock, or during its delay)
// is a first attempt, not a retry of it; a retry one second later is still early.
const app = createSandboxServer()
let origin = ''
beforeAll(async () => {
  origin = (await app.listen(0, '127.0.0.1')).url
})
afterEach(async () => {
  await fetch(`${origin}/__sandbox/reset`, { method: 'POST' })
})
afterAll(() => app.close())

const KEY = { authorization: 'Bearer sandbox-pro' }
const JSON_TYPE = { 'content-type': 'application/json' }

const control = async (method: string, path: string, body?: unknown): Promise<void> => {
  const response = await fetch(`${origin}/__sandbox${path}`, {
    method,
    headers: JSON_TYPE,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  expect(response.status).toBeLessThan(300)
}
const scenario = (name: string) => control('PUT', '/scenario', { name })
const advance = (ms: number) => control('POST', '/clock', { advanceMs: ms })
/** `n` GETs sent at once, each on its own connection; the statuses, or 'failed'. */
const panels = (n: number, path = '/v1/pets?limit=3'): Promise<(number | 'failed')[]> =>
  Promise.all(
    Array.from({ length: n }, () =>
      fetch(`${origin}${path}`, { headers: { ...KEY, connection: 'close' } }).then(
        async (r) => {
          await r.arrayBuffer()
          return r.status
        },
        () => 'failed' as const,
      ),
    ),
  )
const report = async (): Promise<ClientReport> =>
  (await fetch(`${origin}/__sandbox/report`)).json() as Promise<ClientReport>
const rules = (found: ClientReport): RuleId[] => found.findings.map((f) => f.rule)

describe('retry-before-retry-after and concurrent first attempts', () => {
  it('finds nothing when three panels meet 503 at once and each waits Retry-After and more', async () => {
    await control('POST', '/clock', { now: '2030-01-01T12:00:00Z' })
    await scenario('unavailable')
    expect(await panels(3)).toEqual([503, 503, 503])
    // Retry-After is 5 s: every panel retries 5.5 s later, at once, and meets 503 again.
    await advance(5_500)
    expect(await panels(3)).toEqual([503, 503, 503])
    await advance(6_000)
    await scenario('default')
    expect(await panels(3)).toEqual([200, 200, 200])
    const found = await report()
    expect(found.requests).toBe(9)
    expect(found.findings).toEqual([])
  })

  it('still finds a panel that retries one second later, inside Retry-After', async () => {
    await control('POST', '/clock', { now: '2030-01-01T12:00:00Z' })
    await scenario('unavailable')
    expect(await panels(3)).toEqual([503, 503, 503])
    await advance(1_000)
    expect(await panels(1)).toEqual([503])
    const found = await report()
    expect(rules(found)).toEqual(['retry-before-retry-after'])
    // The last 503 of the burst, and the retry (seqs go on counting across resets).
    const [answer, retry] = found.findings[0]?.seqs ?? []
    expect(found.findings[0]?.seqs).toHaveLength(2)
    expect(retry).toBe((answer ?? 0) + 1)
    expect(found.findings[0]?.message).toContain(
      `sent 1 request before the Retry-After of the 503 service_unavailable at #${answer}`,
    )
    expect(found.findings[0]?.message).toContain('it came 1 s after that answer')
  })
})

describe('no-exponential-backoff counts waits the same way', () => {
  it('finds three panels that each retry a failed connection every second', async () => {
    await control('POST', '/clock', { now: '2030-01-01T12:00:00Z' })
    await scenario('network-error')
    expect(await panels(3)).toEqual(['failed', 'failed', 'failed'])
    for (let i = 0; i < 3; i++) {
      await advance(1_000)
      expect(await panels(3)).toEqual(['failed', 'failed', 'failed'])
    }
    const found = await report()
    // Concurrent requests are not zero waits, which would pass for growth (0 s, then 1 s).
    expect(rules(found)).toEqual(['no-exponential-backoff'])
    expect(found.findings[0]?.message).toContain('waits of 1 s, 1 s, 1 s, 1 s, 1 s')
  })

  it('finds nothing when three panels each double their waits', async () => {
    await control('POST', '/clock', { now: '2030-01-01T12:00:00Z' })
    await scenario('network-error')
    expect(await panels(3)).toEqual(['failed', 'failed', 'failed'])
    for (const wait of [1_000, 2_000, 4_000]) {
      await advance(wait)
      expect(await panels(3)).toEqual(['failed', 'failed', 'failed'])
    }
    expect(rules(await report())).toEqual([])
  })
})
