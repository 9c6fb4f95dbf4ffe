import { setupServer } from 'msw/node'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { PlanName } from '../../src/contract/plans.js'
import { createSandbox } from '../../src/handlers/create-sandbox.js'
import type { SandboxRequest } from '../../src/http/types.js'

const BASE = 'https://api.example.test/v1'
const NOON = '2030-01-01T12:00:00.000Z'

const sandbox = createSandbox({ baseUrl: BASE })
const server = setupServer(...sandbox.handlers)
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterAll(() => server.close())
beforeEach(async () => {
  await sandbox.reset()
  sandbox.clock.set(NOON)
})

const get = (key: string | undefined) =>
  fetch(`${BASE}/pets?limit=1`, {
    headers: key === undefined ? {} : { authorization: `Bearer ${key}` },
  })

const codeOf = async (response: Response): Promise<string> =>
  response.status === 200 ? 'ok' : ((await response.json()) as { code: string }).code

describe('rate limits through the MSW path', () => {
  it('admits exactly 60 of 200 simultaneous requests when 60 are left', async () => {
    const { key } = sandbox.keys.create({ plan: 'enterprise', perMinute: 100, perDay: 1_000 })
    for (let i = 0; i < 40; i++) expect((await get(key)).status).toBe(200)
    const responses = await Promise.all(Array.from({ length: 200 }, () => get(key)))
    const codes = await Promise.all(responses.map(codeOf))
    const count = (code: string) => codes.filter((c) => c === code).length
    expect(count('ok')).toBe(60)
    // 140 refused: the first 20 rejections are plain 429s, the 21st starts the ban.
    expect(count('rate_limit_exceeded')).toBe(20)
    expect(count('api_key_banned')).toBe(120)
  })

  it('passes the rateLimit option to the limiter', async () => {
    const custom = createSandbox({ rateLimit: { banAfter: 1, banMinutes: 2 } })
    custom.clock.set(NOON)
    const { key } = custom.keys.create({ plan: 'enterprise', perMinute: 1 })
    const send = () =>
      custom.handle({
        method: 'GET',
        url: 'https://x.test/v1/pets',
        headers: { authorization: `Bearer ${key}` },
        body: null,
      })
    const statuses = []
    for (let i = 0; i < 3; i++) statuses.push(JSON.parse((await send())?.body ?? '{}').code)
    expect(statuses).toEqual([undefined, 'rate_limit_exceeded', 'api_key_banned'])
    expect((await send())?.headers['Retry-After']).toBe('120')
  })

  it('rejects a bad rateLimit option when the sandbox is created', () => {
    expect(() => createSandbox({ rateLimit: { banMinutes: 0 } })).toThrow(
      /Failed to configure the rate limiter: rateLimit.banMinutes/,
    )
  })

  it('reset clears quotas and bans', async () => {
    for (let i = 0; i < 60 + 21; i++) await get('sandbox-free')
    expect(await codeOf(await get('sandbox-free'))).toBe('api_key_banned')
    await sandbox.reset()
    sandbox.clock.set(NOON)
    const response = await get('sandbox-free')
    expect(response.status).toBe(200)
    expect(response.headers.get('x-ratelimit-remaining')).toBe('59')
  })

  it('uses the sandbox clock for every window', async () => {
    const first = await get('sandbox-pro')
    expect(first.headers.get('x-ratelimit-reset')).toBe(String(Date.parse(NOON) / 1000 + 60))
    sandbox.clock.advance(60_000)
    const later = await get('sandbox-pro')
    expect(later.headers.get('x-ratelimit-remaining')).toBe('299')
    expect(later.headers.get('x-ratelimit-reset')).toBe(String(Date.parse(NOON) / 1000 + 120))
  })
})

describe('keys and plans', () => {
  it('gives each demo key its plan quota', async () => {
    const limits = await Promise.all(
      ['sandbox-free', 'sandbox-pro', 'sandbox-business', 'sandbox-enterprise'].map(async (k) =>
        (await get(k)).headers.get('x-ratelimit-limit'),
      ),
    )
    expect(limits).toEqual(['60', '300', '1000', '5000'])
  })

  it('fails with a clear message for an unknown plan', () => {
    expect(() => sandbox.keys.create({ plan: 'gold' as PlanName })).toThrow(
      /unknown plan "gold". Use one of free, pro, business, enterprise/,
    )
  })
})

describe('the anonymous bucket', () => {
  const anonymous = (
    clientAddress: string | undefined,
    authorization?: string,
  ): SandboxRequest => ({
    method: 'GET',
    url: 'https://api.example.test/v1/pets',
    headers: authorization === undefined ? {} : { authorization },
    body: null,
    clientAddress,
  })

  it('counts a 401 against free-plan limits and says so in its headers', async () => {
    const response = await sandbox.handle(anonymous('203.0.113.7'))
    expect(response?.status).toBe(401)
    expect(response?.headers['X-RateLimit-Limit']).toBe('60')
    expect(response?.headers['X-RateLimit-Remaining']).toBe('59')
  })

  it('answers 429 before 401 once the bucket is spent, and never bans it', async () => {
    for (let i = 0; i < 60; i++) await sandbox.handle(anonymous('203.0.113.7', 'Bearer guess'))
    for (let i = 0; i < 30; i++) {
      const response = await sandbox.handle(anonymous('203.0.113.7', 'Bearer guess'))
      expect(response?.status).toBe(429)
      expect(JSON.parse(response?.body ?? '{}').code).toBe('rate_limit_exceeded')
    }
  })

  it('keeps one bucket per client address, and one shared bucket without an address', async () => {
    for (let i = 0; i < 60; i++) await sandbox.handle(anonymous('203.0.113.7'))
    expect((await sandbox.handle(anonymous('203.0.113.7')))?.status).toBe(429)
    expect((await sandbox.handle(anonymous('198.51.100.1')))?.status).toBe(401)
    for (let i = 0; i < 60; i++) await sandbox.handle(anonymous(undefined))
    expect((await sandbox.handle(anonymous(undefined)))?.status).toBe(429)
  })

  it('does not slow down callers with a valid key', async () => {
    for (let i = 0; i < 61; i++) await sandbox.handle(anonymous('203.0.113.7'))
    const keyed = await sandbox.handle(anonymous('203.0.113.7', 'Bearer sandbox-free'))
    expect(keyed?.status).toBe(200)
  })
})
