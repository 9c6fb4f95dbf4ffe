import { describe, expect, it } from 'vitest'
import type { SuiteContext } from './define-conformance-suite.js'
import { expectApiError } from './expect-api-error.js'

const CHALLENGE = 'Bearer realm="petstore"'
const INVALID_TOKEN_CHALLENGE = 'Bearer realm="petstore", error="invalid_token"'
const DEMO_KEYS = ['sandbox-free', 'sandbox-pro', 'sandbox-business', 'sandbox-enterprise']

/** Contract §2: bearer parsing, the three 401 codes, demo and run-time keys, and the order of checks. */
export const contractAuthSuite = (ctx: SuiteContext): void => {
  const list = (authorization: string) =>
    ctx.send({ method: 'GET', path: '/pets', headers: { authorization } })

  describe('authentication', () => {
    it('answers 401 missing_api_key with a bare Bearer challenge when no Authorization header is sent', async () => {
      const response = await ctx.send({ method: 'GET', path: '/pets' })
      expectApiError(response, 401, 'missing_api_key')
      expect(response.headers['www-authenticate']).toBe(CHALLENGE)
    })

    it('answers 401 invalid_api_key with error="invalid_token" for an unknown key', async () => {
      const response = await list('Bearer sandbox-nobody')
      expectApiError(response, 401, 'invalid_api_key')
      expect(response.headers['www-authenticate']).toBe(INVALID_TOKEN_CHALLENGE)
    })

    it.each([
      ['two tokens', 'Bearer sandbox-free sandbox-pro'],
      ['a token with a character outside RFC 6750', 'Bearer sandbox,free'],
    ])(
      'answers 401 malformed_authorization with error="invalid_token" for %s',
      async (_, value) => {
        const response = await list(value)
        expectApiError(response, 401, 'malformed_authorization')
        expect(response.headers['www-authenticate']).toBe(INVALID_TOKEN_CHALLENGE)
      },
    )

    it.each([
      ['two keys', ['Bearer sandbox-free', 'Bearer sandbox-pro']],
      ['the same key twice', ['Bearer sandbox-free', 'Bearer sandbox-free']],
    ])(
      'answers 401 malformed_authorization with error="invalid_token" for two Authorization headers: %s (regression: the server took the first)',
      async (_, values) => {
        const response = await ctx.send({
          method: 'GET',
          path: '/pets',
          headers: { authorization: values },
        })
        expectApiError(response, 401, 'malformed_authorization')
        expect(response.headers['www-authenticate']).toBe(INVALID_TOKEN_CHALLENGE)
      },
    )

    it.each([
      ['an empty header', ''],
      ['the Basic scheme', 'Basic c2FuZGJveC1mcmVlOg=='],
      ['a bare key without a scheme', 'sandbox-enterprise'],
      ['the Bearer scheme without a token', 'Bearer'],
    ])(
      'answers 401 malformed_authorization without an error attribute for %s',
      async (_, value) => {
        const response = await list(value)
        expectApiError(response, 401, 'malformed_authorization')
        expect(response.headers['www-authenticate']).toBe(CHALLENGE)
      },
    )

    it.each(['bearer', 'BEARER', 'BeArEr'])('accepts the scheme written %s', async (scheme) => {
      const response = await list(`${scheme} sandbox-enterprise`)
      expect(response.status).toBe(200)
    })

    it.each(DEMO_KEYS)('lets the demo key %s list pets', async (key) => {
      const response = await ctx.sendAs(key, { method: 'GET', path: '/pets' })
      expect(response.status).toBe(200)
    })

    it('accepts a key created at run time and refuses it once revoked', async () => {
      const { controls } = ctx.target()
      const key = await controls.createKey({ plan: 'pro' })
      expect((await ctx.sendAs(key, { method: 'GET', path: '/pets' })).status).toBe(200)
      await controls.revokeKey(key)
      const response = await ctx.sendAs(key, { method: 'GET', path: '/pets' })
      expectApiError(response, 401, 'invalid_api_key')
      expect(response.headers['www-authenticate']).toBe(INVALID_TOKEN_CHALLENGE)
    })

    it('refuses a revoked demo key until the sandbox is reset', async () => {
      const { controls } = ctx.target()
      await controls.revokeKey('sandbox-pro')
      expectApiError(
        await ctx.sendAs('sandbox-pro', { method: 'GET', path: '/pets' }),
        401,
        'invalid_api_key',
      )
      expect((await ctx.sendAs('sandbox-free', { method: 'GET', path: '/pets' })).status).toBe(200)
      await controls.reset()
      expect((await ctx.sendAs('sandbox-pro', { method: 'GET', path: '/pets' })).status).toBe(200)
    })

    it('authenticates every operation, the deprecated one included', async () => {
      expectApiError(await ctx.send({ method: 'GET', path: '/pets/1' }), 401, 'missing_api_key')
      const create = await ctx.send({
        method: 'POST',
        path: '/pets',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
      })
      expectApiError(create, 401, 'missing_api_key')
    })
  })

  describe('order of checks', () => {
    it('answers 401, not 404, to an unauthenticated request for an unknown path', async () => {
      expectApiError(await ctx.send({ method: 'GET', path: '/owners' }), 401, 'missing_api_key')
      expectApiError(await ctx.send({ method: 'GET', path: '' }), 401, 'missing_api_key')
    })

    it('answers 401, not 405, to an unauthenticated request with another method', async () => {
      const response = await ctx.send({ method: 'DELETE', path: '/pets/1' })
      expectApiError(response, 401, 'missing_api_key')
      expect(response.headers.allow).toBeUndefined()
    })

    it('answers 401, not 400, to an unauthenticated request with a bad body or parameter', async () => {
      const create = await ctx.send({
        method: 'POST',
        path: '/pets',
        headers: { authorization: 'Bearer nope', 'content-type': 'text/plain' },
        body: '{"name":',
      })
      expectApiError(create, 401, 'invalid_api_key')
      expectApiError(
        await ctx.send({ method: 'GET', path: '/pets?limit=0' }),
        401,
        'missing_api_key',
      )
      expectApiError(await ctx.send({ method: 'GET', path: '/pets/abc' }), 401, 'missing_api_key')
    })

    it('answers 404, not 400, to an unknown path with bad parameters', async () => {
      const response = await ctx.sendAs('sandbox-enterprise', {
        method: 'GET',
        path: '/owners?limit=0&limit=1',
      })
      expectApiError(response, 404, 'route_not_found')
    })

    it('answers 405, not 400, to a known path with another method and a bad body', async () => {
      const response = await ctx.sendAs('sandbox-enterprise', {
        method: 'PUT',
        path: '/pets/abc',
        headers: { 'content-type': 'text/plain' },
        body: 'not json',
      })
      expectApiError(response, 405, 'method_not_allowed')
    })
  })
}
