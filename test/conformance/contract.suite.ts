import { describe, expect, it } from 'vitest'
import type { SuiteContext } from './define-conformance-suite.js'

/** Contract §1, §2, §4–§7: auth, pets, listing, fetching one, errors. */
export const contractSuite = (ctx: SuiteContext): void => {
  describe('listPets', () => {
    it('answers 200 with the first 20 seeded pets in ascending id order', async () => {
      const response = await ctx.sendAs('sandbox-free', { method: 'GET', path: '/pets' })
      expect(response.status).toBe(200)
      const pets = JSON.parse(response.body) as { id: number }[]
      expect(pets.map((p) => p.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
      expect(response.headers['x-total-count']).toBe('25')
    })
  })
}
