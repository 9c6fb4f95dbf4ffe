import { beforeEach, describe, expect, it } from 'vitest'
import { type ContractOperationId, createSandbox } from '../../src/index.js'
import { type CallOptions, callSandbox } from './call-sandbox.js'

const sandbox = createSandbox({ now: () => Date.parse('2027-03-01T12:00:20Z') })
beforeEach(() => sandbox.reset())

const OPERATIONS: Record<ContractOperationId, Omit<CallOptions, 'path'> & { path: string }> = {
  listPets: { method: 'GET', path: '/pets' },
  createPet: { method: 'POST', path: '/pets', body: { name: 'Rex', categoryId: 2 } },
  getPet: { method: 'GET', path: '/pets/1' },
}

/** The forced answers that replace every operation, and what they carry. */
const FORCED = [
  { scenario: 'rate-limited', status: 429, code: 'rate_limit_exceeded', retryAfter: '40' },
  { scenario: 'banned', status: 429, code: 'api_key_banned', retryAfter: '900' },
  { scenario: 'unauthorized', status: 401, code: 'invalid_api_key', retryAfter: undefined },
  { scenario: 'server-error', status: 500, code: 'internal_error', retryAfter: undefined },
  { scenario: 'unavailable', status: 503, code: 'service_unavailable', retryAfter: '5' },
] as const

const withScenario = (operation: ContractOperationId, scenario: string) => {
  const { path, ...rest } = OPERATIONS[operation]
  return { ...rest, path: `${path}${path.includes('?') ? '&' : '?'}__scenario=${scenario}` }
}

describe.each(FORCED)('the $scenario scenario', ({ scenario, status, code, retryAfter }) => {
  it.each(Object.keys(OPERATIONS) as ContractOperationId[])(
    `answers ${status} ${code} to %s with a JSON Error body and the rate-limit headers`,
    async (operation) => {
      const response = await callSandbox(sandbox, withScenario(operation, scenario))
      expect(response.status).toBe(status)
      expect(response.headers['Content-Type']).toBe('application/json')
      expect(response.json).toMatchObject({ code, status })
      expect(typeof (response.json as { message: unknown }).message).toBe('string')
      expect(response.headers['X-RateLimit-Limit']).toBe('5000')
      expect(response.headers['X-RateLimit-Reset']).toMatch(/^\d+$/)
      expect(response.headers['Retry-After']).toBe(retryAfter)
      expect(response.delayMs).toBeUndefined()
      expect(response.fault).toBeUndefined()
    },
  )

  it('still answers 401 missing_api_key to a request without a key', async () => {
    const response = await callSandbox(sandbox, {
      ...withScenario('listPets', scenario),
      key: null,
    })
    expect(response.status).toBe(401)
    expect(response.json).toMatchObject({ code: 'missing_api_key' })
  })

  it('leaves the default store untouched by a forced createPet', async () => {
    await callSandbox(sandbox, withScenario('createPet', scenario))
    expect(sandbox.db.pets.count).toBe(25)
  })
})

describe('forced rate-limit headers', () => {
  it('announces an exhausted window in the rate-limited scenario', async () => {
    const response = await callSandbox(sandbox, withScenario('listPets', 'rate-limited'))
    expect(response.headers['X-RateLimit-Remaining']).toBe('0')
    // 12:00:20 → the minute window resets at 12:01:00.
    expect(response.headers['X-RateLimit-Reset']).toBe(
      String(Date.parse('2027-03-01T12:01:00Z') / 1000),
    )
  })

  it('gives the WWW-Authenticate challenge of a revoked key in the unauthorized scenario', async () => {
    const response = await callSandbox(sandbox, withScenario('getPet', 'unauthorized'))
    expect(response.headers['WWW-Authenticate']).toBe(
      'Bearer realm="petstore", error="invalid_token"',
    )
  })

  it('carries the real remaining quota on answers that are not about quota', async () => {
    const response = await callSandbox(sandbox, withScenario('listPets', 'server-error'))
    expect(response.headers['X-RateLimit-Remaining']).toBe('4999')
  })
})

describe('the sunset scenario', () => {
  it('answers getPet 410 operation_removed with the deprecation headers', async () => {
    const response = await callSandbox(sandbox, withScenario('getPet', 'sunset'))
    expect(response.status).toBe(410)
    expect(response.json).toMatchObject({ code: 'operation_removed', status: 410 })
    expect(response.headers.Deprecation).toMatch(/^@\d+$/)
    expect(response.headers.Sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT')
    expect(response.headers.Link).toBe(
      '<https://api.example.test/v1/pets>; rel="successor-version"',
    )
    expect(response.headers['X-RateLimit-Remaining']).toBe('4999')
  })

  it('answers listPets and createPet as the default does, on the default store', async () => {
    const list = await callSandbox(sandbox, withScenario('listPets', 'sunset'))
    expect(list.status).toBe(200)
    expect(list.headers['X-Total-Count']).toBe('25')
    const created = await callSandbox(sandbox, withScenario('createPet', 'sunset'))
    expect(created.status).toBe(201)
    expect(created.json).toMatchObject({ id: 26, name: 'Rex' })
    expect(sandbox.db.pets.count).toBe(26)
  })
})

describe('the default scenario', () => {
  it('answers every operation as the contract does', async () => {
    expect((await callSandbox(sandbox, withScenario('listPets', 'default'))).status).toBe(200)
    expect((await callSandbox(sandbox, withScenario('getPet', 'default'))).status).toBe(200)
    expect((await callSandbox(sandbox, withScenario('createPet', 'default'))).status).toBe(201)
  })
})

describe('transport scenarios', () => {
  it.each(Object.keys(OPERATIONS) as ContractOperationId[])(
    'fails the connection of %s at once in the network-error scenario, without running it',
    async (operation) => {
      const response = await callSandbox(sandbox, withScenario(operation, 'network-error'))
      expect(response.fault).toBe('network-error')
      expect(response.delayMs).toBeUndefined()
      expect(sandbox.db.pets.count).toBe(25)
    },
  )

  it.each(Object.keys(OPERATIONS) as ContractOperationId[])(
    'holds %s 30000 ms then fails it in the timeout scenario, without running it',
    async (operation) => {
      const response = await callSandbox(sandbox, withScenario(operation, 'timeout'))
      expect(response.fault).toBe('timeout')
      expect(response.delayMs).toBe(30_000)
      expect(sandbox.db.pets.count).toBe(25)
    },
  )

  it('honours __delay in the timeout scenario', async () => {
    const response = await callSandbox(sandbox, { path: '/pets?__scenario=timeout&__delay=1' })
    expect(response).toMatchObject({ fault: 'timeout', delayMs: 1 })
  })

  it.each([
    ['listPets', 200],
    ['createPet', 201],
    ['getPet', 200],
  ] as const)(
    'delays %s 2000 ms in the slow scenario and answers %i',
    async (operation, status) => {
      const response = await callSandbox(sandbox, withScenario(operation, 'slow'))
      expect(response.status).toBe(status)
      expect(response.delayMs).toBe(2_000)
      expect(response.fault).toBeUndefined()
    },
  )

  it('delays error answers too in the slow scenario', async () => {
    const response = await callSandbox(sandbox, { path: '/pets/999?__scenario=slow&__delay=7' })
    expect(response.status).toBe(404)
    expect(response.delayMs).toBe(7)
  })
})

describe('the banned scenario with a configured ban length', () => {
  it('points Retry-After and X-RateLimit-Reset at the end of a ban of rateLimit.banMinutes', async () => {
    const now = Date.parse('2027-03-01T12:00:20Z')
    const short = createSandbox({ now: () => now, rateLimit: { banMinutes: 2 } })
    const response = await callSandbox(short, withScenario('listPets', 'banned'))
    expect(response.status).toBe(429)
    expect(response.headers['Retry-After']).toBe('120')
    expect(response.headers['X-RateLimit-Reset']).toBe(String(now / 1000 + 120))
    expect(response.headers['X-RateLimit-Remaining']).toBe('0')
  })
})
