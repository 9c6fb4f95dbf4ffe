import { beforeEach, describe, expect, it } from 'vitest'
import { expectApiError } from './expect-api-error.js'
import type { ConformanceTarget, WireRequest, WireResponse } from './target.js'

const unix = (iso: string): string => String(Date.parse(iso) / 1000)
const LIST: WireRequest = { method: 'GET', path: '/pets?limit=1' }
const json = { 'content-type': 'application/json' }
const SEEDED = '25'

/**
 * Contract §12 in one runtime: what happens in one session (a pet created, a
 * sticky scenario, a clock jump, a spent quota, a revoked key, a reset) is
 * seen by no other session, `default` included; a key created in a session
 * lands there whatever the request names; the flag wins over the header.
 *
 * @example
 * defineSessionIsolationSuite(() => target)
 */
export const defineSessionIsolationSuite = (getTarget: () => ConformanceTarget): void => {
  const a = () => getTarget().session('isolation-a')
  const b = () => getTarget().session('isolation-b')
  const base = () => getTarget()
  const as = (target: ConformanceTarget, key: string, request: WireRequest) =>
    target.send({ ...request, headers: { authorization: `Bearer ${key}`, ...request.headers } })
  const total = async (target: ConformanceTarget, key = 'sandbox-enterprise') => {
    const response = await as(target, key, { method: 'GET', path: '/pets?limit=100' })
    expect(response.status).toBe(200)
    return response.headers['x-total-count']
  }
  const createPet = async (target: ConformanceTarget, name: string): Promise<number> => {
    const response = await as(target, 'sandbox-enterprise', {
      method: 'POST',
      path: '/pets',
      headers: json,
      body: JSON.stringify({ name, categoryId: 1 }),
    })
    expect(response.status).toBe(201)
    return (JSON.parse(response.body) as { id: number }).id
  }
  const quota = (response: WireResponse) => ({
    remaining: response.headers['x-ratelimit-remaining'],
    reset: response.headers['x-ratelimit-reset'],
  })

  describe('session isolation', () => {
    beforeEach(async () => {
      for (const target of [base(), a(), b()]) await target.controls.reset()
    })

    it('keeps a pet, a sticky scenario, a clock jump and a spent quota inside their session', async () => {
      for (const target of [base(), b()]) await target.controls.setClock('2030-01-01T12:00:00Z')
      const id = await createPet(a(), 'Only in A')
      await a().controls.setClock('2031-01-01T00:00:00Z')
      await Promise.all(Array.from({ length: 60 }, () => as(a(), 'sandbox-free', LIST)))
      await a().controls.setScenario('empty')

      // Session A sees all four.
      expect(await total(a())).toBe('0')
      const pet = await as(a(), 'sandbox-enterprise', {
        method: 'GET',
        path: `/pets/${id}?__scenario=default`,
      })
      expectApiError(pet, 410, 'operation_removed')
      expectApiError(await as(a(), 'sandbox-free', LIST), 429, 'rate_limit_exceeded')

      // Session B and default see none of them.
      for (const target of [b(), base()]) {
        expect(await total(target), target.name).toBe(SEEDED)
        const missing = await as(target, 'sandbox-enterprise', {
          method: 'GET',
          path: `/pets/${id}`,
        })
        expectApiError(missing, 404, 'pet_not_found')
        const free = await as(target, 'sandbox-free', LIST)
        expect(free.status, target.name).toBe(200)
        expect(quota(free), target.name).toEqual({
          remaining: '59',
          reset: unix('2030-01-01T12:01:00Z'),
        })
      }
    })

    it('lands a key created in a session there, whatever session the request names', async () => {
      await createPet(a(), 'Only in A')
      const key = await a().controls.createKey({ plan: 'pro' })
      // Sent with `X-Sandbox-Session: isolation-b`, it still answers from A.
      expect(await total(b(), key)).toBe('26')
      expect(await total(b())).toBe(SEEDED)
    })

    it('keeps a revoked key revoked in its session only', async () => {
      await b().controls.revokeKey('sandbox-pro')
      expectApiError(await as(b(), 'sandbox-pro', LIST), 401, 'invalid_api_key')
      expect((await as(a(), 'sandbox-pro', LIST)).status).toBe(200)
      expect((await as(base(), 'sandbox-pro', LIST)).status).toBe(200)
    })

    it('lets the __session flag win over the X-Sandbox-Session header', async () => {
      await createPet(a(), 'Only in A')
      // b() sends `X-Sandbox-Session: isolation-b`; the flag names A.
      const response = await as(b(), 'sandbox-enterprise', {
        method: 'GET',
        path: '/pets?limit=1&__session=isolation-a',
      })
      expect(response.status).toBe(200)
      expect(response.headers['x-total-count']).toBe('26')
      expect(response.headers.link).not.toContain('__session')
    })

    it.each([
      ['X-Sandbox-Session', { 'x-sandbox-session': 'no/slash' }, ''],
      ['__session', {}, `&__session=${'x'.repeat(65)}`],
    ])(
      'answers 400 invalid_parameter naming %s for a bad session id',
      async (field, headers, query) => {
        const response = await as(base(), 'sandbox-enterprise', {
          method: 'GET',
          path: `/pets?limit=1${query}`,
          headers,
        })
        const body = expectApiError(response, 400, 'invalid_parameter')
        expect(body.details?.map((d) => d.field)).toEqual([field])
      },
    )

    it('resets one session without touching another', async () => {
      await createPet(a(), 'Only in A')
      await createPet(base(), 'Only in default')
      await b().controls.reset()
      await base().controls.reset()
      expect(await total(a())).toBe('26')
      expect(await total(base())).toBe(SEEDED)
    })
  })
}
