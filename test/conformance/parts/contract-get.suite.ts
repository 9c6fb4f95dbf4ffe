import { describe, expect, it } from 'vitest'
import type { SuiteContext } from './define-conformance-suite.js'
import { expectApiError } from './expect-api-error.js'
import type { WireResponse } from './target.js'

const SUNSET = 'Thu, 05 Dec 2030 00:00:00 GMT'
const REMOVAL = '2030-12-05T00:00:00.000Z'

/** Contract §6: getPet, its id rules, its deprecation headers and its removal. */
export const contractGetSuite = (ctx: SuiteContext): void => {
  const get = (path: string) => ctx.sendAs('sandbox-enterprise', { method: 'GET', path })
  const expectDeprecationHeaders = (response: WireResponse) => {
    expect(response.headers.deprecation).toMatch(/^@\d+$/)
    expect(response.headers.sunset).toBe(SUNSET)
    expect(response.headers.link).toBe(`<${ctx.target().baseUrl}/pets>; rel="successor-version"`)
  }

  describe('getPet (deprecated)', () => {
    it('answers 200 with the pet of a seeded id, as listPets shows it', async () => {
      const response = await get('/pets/3')
      expect(response.status).toBe(200)
      expect(response.headers['content-type']).toMatch(/^application\/json\b/)
      const listed = (JSON.parse((await get('/pets?limit=3')).body) as unknown[])[2]
      expect(JSON.parse(response.body)).toEqual(listed)
    })

    it('dates the deprecation before the removal', async () => {
      const response = await get('/pets/1')
      const deprecatedAt = Number(response.headers.deprecation?.slice(1)) * 1000
      expect(deprecatedAt).toBeLessThan(Date.parse(REMOVAL))
    })

    it.each([
      ['200', '/pets/1', 'sandbox-enterprise'],
      ['404', '/pets/999', 'sandbox-enterprise'],
      ['400', '/pets/abc', 'sandbox-enterprise'],
      ['401', '/pets/1', 'sandbox-nobody'],
    ])('carries Deprecation, Sunset and the successor link on a %s', async (status, path, key) => {
      const response = await ctx.sendAs(key, { method: 'GET', path })
      expect(String(response.status)).toBe(status)
      expectDeprecationHeaders(response)
    })

    it('answers 404 pet_not_found for a well-formed id that matches no pet', async () => {
      expectApiError(await get('/pets/26'), 404, 'pet_not_found')
      expectApiError(await get('/pets/9007199254740991'), 404, 'pet_not_found')
    })

    it.each([
      '0',
      '-1',
      '1.5',
      'abc',
      '9007199254740992',
      '99999999999999999999',
      '01',
      '+1',
      '1e3',
      '0x1',
      '%20%201',
    ])('answers 400 invalid_parameter naming petId for the id %s', async (id) => {
      const body = expectApiError(await get(`/pets/${id}`), 400, 'invalid_parameter')
      expect(body.details?.[0]?.field).toBe('petId')
    })

    it('answers 200 one millisecond before the removal date', async () => {
      await ctx.target().controls.setClock('2030-12-04T23:59:59.999Z')
      const response = await get('/pets/1')
      expect(response.status).toBe(200)
      expectDeprecationHeaders(response)
    })

    it('answers 410 operation_removed pointing to GET /pets from the removal date on', async () => {
      const { controls } = ctx.target()
      await controls.setClock('2030-12-04T23:59:59.999Z')
      await controls.advanceClock(1)
      const response = await get('/pets/1')
      const body = expectApiError(response, 410, 'operation_removed')
      expect(body.message).toContain('/v1/pets')
      expectDeprecationHeaders(response)
      await controls.advanceClock(365 * 86_400_000)
      expectApiError(await get('/pets/999'), 410, 'operation_removed')
    })

    it('keeps listPets and createPet working after getPet is removed', async () => {
      await ctx.target().controls.setClock(REMOVAL)
      expect((await get('/pets')).status).toBe(200)
      const created = await ctx.sendAs('sandbox-enterprise', {
        method: 'POST',
        path: '/pets',
        headers: { 'content-type': 'application/json' },
        body: '{"name":"Late","categoryId":1}',
      })
      expect(created.status).toBe(201)
    })
  })
}
