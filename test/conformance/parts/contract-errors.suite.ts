import { describe, expect, it } from 'vitest'
import type { SuiteContext } from './define-conformance-suite.js'
import { expectApiError } from './expect-api-error.js'
import type { WireRequest, WireResponse } from './target.js'

/** Contract §1 and §7: routing under /v1, 404, 405 with Allow, the Error shape and the headers every answer carries. */
export const contractErrorsSuite = (ctx: SuiteContext): void => {
  const as = (request: WireRequest) => ctx.sendAs('sandbox-enterprise', request)

  describe('routing', () => {
    it.each([
      ['an unknown path', '/owners'],
      ['the base path itself', ''],
      ['the base path with a slash', '/'],
      ['a trailing slash on /pets', '/pets/'],
      ['a trailing slash on a pet', '/pets/1/'],
      ['a path below a pet', '/pets/1/photos'],
      ['a different case', '/Pets'],
    ])('answers 404 route_not_found for %s', async (_, path) => {
      expectApiError(await as({ method: 'GET', path }), 404, 'route_not_found')
    })

    // Regression (issue 10 point 3): msw's path matching threw URIError before the sandbox saw these.
    it.each([
      ['/pets/%ff', 400, 'invalid_parameter'],
      ['/pets/%E0%A4%A', 400, 'invalid_parameter'],
      ['/%ff', 404, 'route_not_found'],
      ['/pets%ff', 404, 'route_not_found'],
    ] as const)('answers invalid percent-encoding in %s with %d %s', async (path, status, code) => {
      expectApiError(await as({ method: 'GET', path }), status, code)
    })

    // Contract §15: HEAD like GET without a body, in every runtime (issue 10).
    it.each(['/pets?limit=2', '/pets/1', '/pets/999999', '/owners'])(
      'answers HEAD %s with the status and headers of GET and no body',
      async (path) => {
        const get = await as({ method: 'GET', path })
        const head = await as({ method: 'HEAD', path })
        expect(head.status).toBe(get.status)
        expect(head.body).toBe('')
        for (const name of ['content-type', 'x-ratelimit-limit', 'x-total-count', 'link']) {
          expect(head.headers[name], name).toBe(get.headers[name])
        }
      },
    )

    it.each([
      ['DELETE', '/pets', 'GET, HEAD, POST, OPTIONS'],
      ['PUT', '/pets', 'GET, HEAD, POST, OPTIONS'],
      ['PATCH', '/pets', 'GET, HEAD, POST, OPTIONS'],
      ['DELETE', '/pets/1', 'GET, HEAD, OPTIONS'],
      ['PUT', '/pets/1', 'GET, HEAD, OPTIONS'],
      ['PATCH', '/pets/1', 'GET, HEAD, OPTIONS'],
      ['POST', '/pets/1', 'GET, HEAD, OPTIONS'],
    ])(
      'answers 405 method_not_allowed with an Allow header to %s %s',
      async (method, path, allow) => {
        const response = await as({
          method,
          path,
          headers: { 'content-type': 'application/json' },
          body: '{}',
        })
        expectApiError(response, 405, 'method_not_allowed')
        expect(response.headers.allow).toBe(allow)
      },
    )
  })

  describe('every answer', () => {
    const exchanges: Array<[string, () => Promise<WireResponse>]> = [
      ['200', () => as({ method: 'GET', path: '/pets' })],
      [
        '201',
        () =>
          as({
            method: 'POST',
            path: '/pets',
            headers: { 'content-type': 'application/json' },
            body: '{"name":"Rex","categoryId":1}',
          }),
      ],
      ['400', () => as({ method: 'GET', path: '/pets?limit=0' })],
      ['401', () => ctx.send({ method: 'GET', path: '/pets' })],
      ['404', () => as({ method: 'GET', path: '/nowhere' })],
      ['405', () => as({ method: 'DELETE', path: '/pets' })],
      [
        '413',
        () =>
          as({
            method: 'POST',
            path: '/pets',
            headers: { 'content-type': 'application/json' },
            body: ' '.repeat(64 * 1024 + 1),
          }),
      ],
    ]

    it.each(exchanges)('carries integer X-RateLimit-* headers on a %s', async (status, send) => {
      const response = await send()
      expect(String(response.status)).toBe(status)
      for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
        expect(response.headers[name], name).toMatch(/^\d+$/)
      }
    })

    it('carries X-RateLimit-* headers on a 410', async () => {
      await ctx.target().controls.setClock('2031-01-01T00:00:00Z')
      const response = await as({ method: 'GET', path: '/pets/1' })
      expectApiError(response, 410, 'operation_removed')
      expect(response.headers['x-ratelimit-reset']).toMatch(/^\d+$/)
    })

    it('answers errors as JSON Error bodies whose status equals the HTTP status', async () => {
      for (const [status, send] of exchanges.slice(2)) {
        const response = await send()
        expect(String(response.status)).toBe(status)
        expect(response.headers['content-type']).toMatch(/^application\/json\b/)
        const body = JSON.parse(response.body) as { status: number; code: string; message: string }
        expect(body.status).toBe(response.status)
        expect(body.code).toMatch(/^[a-z_]+$/)
        expect(body.message).not.toMatch(/\n\s+at /)
      }
    })
  })
}
