import { describe, expect, it } from 'vitest'
import type { SuiteContext } from './define-conformance-suite.js'
import { expectApiError } from './expect-api-error.js'
import type { WireResponse } from './target.js'

interface WirePet {
  id: number
  name: string
  categoryId: number
  status: string
}

const STATUSES = ['available', 'pending', 'sold'] as const
const SEEDED = 25

/** Contract §5: ascending ids, limit, status, cursor, Link and X-Total-Count. */
export const contractListSuite = (ctx: SuiteContext): void => {
  const get = (path: string) => ctx.sendAs('sandbox-enterprise', { method: 'GET', path })
  const pets = (response: WireResponse) => JSON.parse(response.body) as WirePet[]
  const ids = (response: WireResponse) => pets(response).map((pet) => pet.id)

  /** The next link as a URL, or undefined on the last page. */
  const nextLink = (response: WireResponse): URL | undefined => {
    const link = response.headers.link
    if (link === undefined) return undefined
    const match = /^<([^>]+)>; rel="next"$/.exec(link)
    expect(match, `Link header ${link}`).not.toBeNull()
    return new URL(match?.[1] ?? '')
  }
  /** The next link as a path below the API base, for `send`. */
  const nextPath = (response: WireResponse): string | undefined => {
    const url = nextLink(response)
    if (url === undefined) return undefined
    const base = new URL(ctx.target().baseUrl)
    expect(url.origin).toBe(base.origin)
    expect(url.pathname).toBe(`${base.pathname}/pets`)
    return `/pets${url.search}`
  }
  /** Follows next links from `path` to the last page; returns every page. */
  const walk = async (path: string): Promise<WireResponse[]> => {
    const pages: WireResponse[] = []
    let next: string | undefined = path
    while (next !== undefined) {
      const page = await get(next)
      expect(page.status).toBe(200)
      pages.push(page)
      next = nextPath(page)
      expect(pages.length).toBeLessThanOrEqual(SEEDED + 1)
    }
    return pages
  }

  describe('listPets', () => {
    it('answers the first 20 pets in ascending id order with X-Total-Count and a next link', async () => {
      const response = await get('/pets')
      expect(response.status).toBe(200)
      expect(response.headers['content-type']).toMatch(/^application\/json\b/)
      expect(ids(response)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
      expect(response.headers['x-total-count']).toBe(String(SEEDED))
      expect(nextLink(response)?.searchParams.get('limit')).toBe('20')
    })

    it('answers pets with exactly the Pet fields, categories 1 to 5 and every status seeded', async () => {
      const all = pets(await get('/pets?limit=100'))
      expect(all).toHaveLength(SEEDED)
      for (const pet of all) {
        expect(Object.keys(pet).sort()).toEqual(['categoryId', 'id', 'name', 'status'])
        expect(pet.name.trim()).toBe(pet.name)
        expect(pet.categoryId).toBeGreaterThanOrEqual(1)
        expect(pet.categoryId).toBeLessThanOrEqual(5)
      }
      expect(new Set(all.map((pet) => pet.status))).toEqual(new Set(STATUSES))
    })

    it.each([
      ['1', 1],
      ['7', 7],
      ['100', SEEDED],
    ])('answers at most limit=%s pets', async (limit, count) => {
      expect(ids(await get(`/pets?limit=${limit}`))).toHaveLength(count)
    })

    it.each([
      '0',
      '101',
      '-1',
      '1.5',
      'abc',
      '',
      '020',
      '+5',
      ' 5',
      '1e1',
      '0x10',
      '99999999999999999999',
    ])('answers 400 invalid_parameter naming limit for limit=%j', async (limit) => {
      const body = expectApiError(
        await get(`/pets?limit=${encodeURIComponent(limit)}`),
        400,
        'invalid_parameter',
      )
      expect(body.details?.[0]?.field).toBe('limit')
    })

    it.each(STATUSES)('filters by status=%s and counts only matching pets', async (status) => {
      const response = await get(`/pets?limit=100&status=${status}`)
      const found = pets(response)
      expect(found.length).toBeGreaterThan(0)
      expect(found.every((pet) => pet.status === status)).toBe(true)
      expect(response.headers['x-total-count']).toBe(String(found.length))
      expect(ids(response)).toEqual([...ids(response)].sort((a, b) => a - b))
    })

    it('counts every pet in exactly one status', async () => {
      let total = 0
      for (const status of STATUSES) {
        total += Number((await get(`/pets?status=${status}`)).headers['x-total-count'])
      }
      expect(total).toBe(SEEDED)
    })

    it.each(['lost', 'Available', 'AVAILABLE', '', 'available,sold', ' available'])(
      'answers 400 invalid_parameter naming status for status=%j',
      async (status) => {
        const body = expectApiError(
          await get(`/pets?status=${encodeURIComponent(status)}`),
          400,
          'invalid_parameter',
        )
        expect(body.details?.[0]?.field).toBe('status')
      },
    )

    it.each([
      ['limit', 'limit=5&limit=5'],
      ['status', 'status=sold&status=pending'],
      ['cursor', 'cursor=a&cursor=b'],
      ['limit', 'limit=5&limit='],
    ])('answers 400 invalid_parameter naming %s when it is repeated', async (field, query) => {
      const body = expectApiError(await get(`/pets?${query}`), 400, 'invalid_parameter')
      expect(body.details?.[0]?.field).toBe(field)
    })

    it('ignores unknown query parameters', async () => {
      const plain = await get('/pets?limit=3')
      const withUnknown = await get('/pets?limit=3&offset=10&page=2&sort=desc&foo=bar&foo=baz')
      expect(withUnknown.status).toBe(200)
      expect(withUnknown.body).toBe(plain.body)
      expect(withUnknown.headers.link).toBe(plain.headers.link)
    })

    it('pages through all 25 pets with next links and no link on the last page', async () => {
      const pages = await walk('/pets?limit=10')
      expect(pages.map((page) => ids(page).length)).toEqual([10, 10, 5])
      expect(pages.flatMap(ids)).toEqual(Array.from({ length: SEEDED }, (_, i) => i + 1))
      expect(pages.at(-1)?.headers.link).toBeUndefined()
      for (const page of pages) expect(page.headers['x-total-count']).toBe(String(SEEDED))
    })

    it('sends no next link when the last page is exactly full', async () => {
      const pages = await walk('/pets?limit=5')
      expect(pages.map((page) => ids(page).length)).toEqual([5, 5, 5, 5, 5])
      expect((await get('/pets?limit=25')).headers.link).toBeUndefined()
    })

    it('keeps limit and status in the next link', async () => {
      const first = await get('/pets?limit=2&status=sold')
      const link = nextLink(first)
      expect(link?.searchParams.get('limit')).toBe('2')
      expect(link?.searchParams.get('status')).toBe('sold')
      expect(link?.searchParams.get('cursor')).toMatch(/.+/)
      const pages = await walk('/pets?limit=2&status=sold')
      const all = pages.flatMap(pets)
      expect(all.every((pet) => pet.status === 'sold')).toBe(true)
      expect(all.map((pet) => pet.id)).toEqual(ids(await get('/pets?limit=100&status=sold')))
      for (const page of pages) {
        expect(page.headers['x-total-count']).toBe(String(all.length))
      }
    })

    it('keeps pages stable while pets are created, and the new pets follow at the end', async () => {
      const first = await get('/pets?limit=10')
      for (const name of ['Ada', 'Bo', 'Cy']) {
        const created = await ctx.sendAs('sandbox-enterprise', {
          method: 'POST',
          path: '/pets',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name, categoryId: 1 }),
        })
        expect(created.status).toBe(201)
      }
      const rest = await walk(nextPath(first) ?? '')
      expect(rest.map(ids)[0]).toEqual(Array.from({ length: 10 }, (_, i) => i + 11))
      const after = rest.flatMap(pets)
      expect(after.slice(-3).map((pet) => pet.name)).toEqual(['Ada', 'Bo', 'Cy'])
      expect([...ids(first), ...after.map((pet) => pet.id)]).toHaveLength(SEEDED + 3)
      expect(rest[0]?.headers['x-total-count']).toBe(String(SEEDED + 3))
    })

    it.each([
      ['a token that is not ours', 'abc'],
      ['an empty cursor', ''],
      ['a cursor of a negative position', btoa('after:-1').replace(/=+$/, '')],
      ['a cursor of a fraction', btoa('after:1.5').replace(/=+$/, '')],
      ['a cursor with characters outside base64url', 'YWZ0ZXI6NQ=='],
    ])('answers 400 invalid_parameter naming cursor for %s', async (_, cursor) => {
      const body = expectApiError(
        await get(`/pets?cursor=${encodeURIComponent(cursor)}`),
        400,
        'invalid_parameter',
      )
      expect(body.details?.[0]?.field).toBe('cursor')
    })

    it('answers 400 invalid_parameter for a next-link cursor that was tampered with', async () => {
      const cursor = nextLink(await get('/pets?limit=5'))?.searchParams.get('cursor') ?? ''
      for (const tampered of [`${cursor}x`, `x${cursor}`, cursor.slice(0, -1)]) {
        const body = expectApiError(
          await get(`/pets?cursor=${encodeURIComponent(tampered)}`),
          400,
          'invalid_parameter',
        )
        expect(body.details?.[0]?.field).toBe('cursor')
      }
    })
  })
}
