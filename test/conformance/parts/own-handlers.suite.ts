import { describe, expect, it } from 'vitest'
import type { SuiteContext } from './define-conformance-suite.js'

const codeOf = (body: string): unknown => (JSON.parse(body) as { code?: unknown }).code

/** The own-handler part: needs a target made with `handlers: OWN_HANDLERS` and controls with `journal`. */
export const ownHandlersSuite = ({ target }: SuiteContext): void => {
  const get = (path: string, key?: string) =>
    target().send({
      method: 'GET',
      path,
      headers: key === undefined ? {} : { authorization: `Bearer ${key}` },
    })

  describe('your own handlers (contract §20)', () => {
    it('answers 401 without a key, as for the contract', async () => {
      const response = await get('/categories')
      expect(response.status).toBe(401)
      expect(codeOf(response.body)).toBe('missing_api_key')
      expect(response.headers['www-authenticate']).toBe('Bearer realm="petstore"')
    })

    it('answers 200 with a key, with the X-RateLimit-* headers', async () => {
      const response = await get('/categories', 'sandbox-free')
      expect([response.status, JSON.parse(response.body)]).toEqual([200, [{ id: 1, name: 'Cats' }]])
      expect(response.headers['x-ratelimit-limit']).toBe('60')
      expect(response.headers['x-ratelimit-remaining']).toBe('59')
      expect(response.headers['x-ratelimit-reset']).toMatch(/^\d+$/)
    })

    it('shares one quota with /v1/pets', async () => {
      const key = await target().controls.createKey({ plan: 'enterprise', perMinute: 3 })
      expect((await get('/categories', key)).headers['x-ratelimit-remaining']).toBe('2')
      expect((await get('/pets', key)).headers['x-ratelimit-remaining']).toBe('1')
      expect((await get('/orders/7', key)).headers['x-ratelimit-remaining']).toBe('0')
      const refused = await get('/categories', key)
      expect([refused.status, codeOf(refused.body)]).toEqual([429, 'rate_limit_exceeded'])
    })

    it('answers 503 under the sticky scenario unavailable', async () => {
      await target().controls.setScenario('unavailable')
      const response = await get('/categories', 'sandbox-free')
      expect([response.status, codeOf(response.body)]).toEqual([503, 'service_unavailable'])
      expect(response.headers['retry-after']).toBeDefined()
    })

    it('fails the connection with ?__scenario=network-error', async () => {
      await expect(get('/categories?__scenario=network-error', 'sandbox-free')).rejects.toThrow()
    })

    it('journals each answer under its operation id, a name given or METHOD /template', async () => {
      const { journal } = target().controls
      if (journal === undefined) throw new Error('this part needs controls.journal')
      await get('/categories', 'sandbox-free')
      await get('/orders/42', 'sandbox-free')
      await get('/categories')
      expect(await journal()).toEqual([
        { operation: 'GET /categories', status: 200 },
        { operation: 'getOrder', status: 200 },
        { operation: 'GET /categories', status: 401 },
      ])
    })

    it('answers a public handler without a key or rate-limit headers, and journals it', async () => {
      const response = await get('/status')
      expect([response.status, JSON.parse(response.body)]).toEqual([200, { ok: true }])
      expect(response.headers['x-ratelimit-limit']).toBeUndefined()
      expect(await target().controls.journal?.()).toEqual([
        { operation: 'GET /status', status: 200 },
      ])
    })

    it('leaves a passthrough handler as before: no key, no scenario, no journal', async () => {
      await target().controls.setScenario('unavailable')
      const response = await get('/legacy')
      expect([response.status, JSON.parse(response.body)]).toEqual([200, { legacy: true }])
      expect(response.headers['x-ratelimit-limit']).toBeUndefined()
      expect(await target().controls.journal?.()).toEqual([])
    })
  })
}
