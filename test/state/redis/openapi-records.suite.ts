import { describe, expect, it } from 'vitest'

/** Two servers on one store, both given the same document. */
export interface TwoInstances {
  a: string
  b: string
}

const FREE = { authorization: 'Bearer sandbox-free' }

/** One request to an instance, its body parsed. */
export const send = async (
  origin: string,
  path: string,
  init: { method?: string; body?: unknown; session?: string } = {},
) => {
  const response = await fetch(`${origin}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...FREE,
      ...(init.session === undefined ? {} : { 'x-sandbox-session': init.session }),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? null : JSON.stringify(init.body),
  })
  const text = await response.text()
  return {
    status: response.status,
    headers: response.headers,
    json: text === '' ? undefined : JSON.parse(text),
  }
}

const reset = async (origin: string, session?: string): Promise<void> => {
  const query = session === undefined ? '' : `?__session=${session}`
  const response = await fetch(`${origin}/__sandbox/reset${query}`, { method: 'POST' })
  expect(response.status).toBe(204)
}

/**
 * The OpenAPI document's collections on a shared store (decision 0049), as
 * one sandbox over two instances: what one writes, the other reads.
 */
export const defineOpenApiRecordsSuite = (instances: () => TwoInstances): void => {
  describe('the document’s records on a shared store', () => {
    it('a category created on one instance is read, listed and paged on the other', async () => {
      const { a, b } = instances()
      await reset(a)
      const created = await send(a, '/v1/categories', {
        method: 'POST',
        body: { name: 'Reptiles' },
      })
      expect(created.status).toBe(201)
      expect(created.json.id).toBe(11)
      const read = await send(b, '/v1/categories/11')
      expect([read.status, read.json]).toEqual([200, created.json])
      // Cursors agree: a page from A continues on B, the created record last.
      const first = await send(a, '/v1/categories?limit=6')
      expect(first.json.map((c: { id: number }) => c.id)).toEqual([1, 2, 3, 4, 5, 6])
      const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1] ?? ''
      const path = new URL(next).pathname + new URL(next).search
      const second = await send(b, path)
      expect(second.json.map((c: { id: number }) => c.id)).toEqual([7, 8, 9, 10, 11])
    })

    it('replaces, patches and deletes across instances; reset brings back the seed', async () => {
      const { a, b } = instances()
      await reset(b)
      const seeded = await send(a, '/v1/categories/3')
      const patched = await send(a, '/v1/categories/3', {
        method: 'PATCH',
        body: { name: 'Änderung 🐍' },
      })
      expect([patched.status, patched.json.name]).toEqual([200, 'Änderung 🐍'])
      expect((await send(b, '/v1/categories/3')).json.name).toBe('Änderung 🐍')
      const deleted = await send(b, '/v1/categories/4', { method: 'DELETE' })
      expect(deleted.status).toBeLessThan(300)
      const gone = await send(a, '/v1/categories/4')
      expect([gone.status, gone.json.code, gone.json.status]).toEqual([404, 'not_found', 404])
      await send(a, '/v1/categories', { method: 'POST', body: { name: 'Fish' } })
      await reset(a)
      expect((await send(b, '/v1/categories/3')).json).toEqual(seeded.json)
      expect((await send(b, '/v1/categories/4')).status).toBe(200)
      expect((await send(b, '/v1/categories/11')).status).toBe(404)
      // The counter starts after the seed again.
      expect(
        (await send(b, '/v1/categories', { method: 'POST', body: { name: 'Birds' } })).json.id,
      ).toBe(11)
    })

    it('keeps each session’s records apart', async () => {
      const { a, b } = instances()
      await reset(a)
      await reset(a, 'alice')
      await send(a, '/v1/categories', {
        method: 'POST',
        body: { name: 'Only Alice' },
        session: 'alice',
      })
      expect((await send(b, '/v1/categories/11', { session: 'alice' })).json.name).toBe(
        'Only Alice',
      )
      expect((await send(b, '/v1/categories/11')).status).toBe(404)
      await reset(b, 'alice')
      expect((await send(a, '/v1/categories/11', { session: 'alice' })).status).toBe(404)
    })

    it('gives every concurrent create its own id, whichever instance answers', async () => {
      const { a, b } = instances()
      await reset(a)
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          send(i % 2 === 0 ? a : b, '/v1/categories', {
            method: 'POST',
            body: { name: `Concurrent ${i}` },
          }),
        ),
      )
      expect(answers.map((r) => r.status)).toEqual(answers.map(() => 201))
      const ids = answers.map((r) => r.json.id as number).sort((x, y) => x - y)
      expect(ids).toEqual(Array.from({ length: 40 }, (_, i) => 11 + i))
      const listed = await send(b, '/v1/categories?limit=100')
      expect(listed.json).toHaveLength(50)
      expect(listed.headers.get('x-total-count')).toBe('50')
    })
  })
}
