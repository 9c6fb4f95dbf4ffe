import { describe, expect, it } from 'vitest'
import { jsonResponse } from '../../src/http/json-response.js'
import type { Operation } from '../../src/operations/operation.js'
import { CONTRACT_ROUTES, createRouteTable } from '../../src/operations/route-table.js'
import { createSandboxCore } from '../../src/sandbox/create-sandbox-core.js'

const categories: Operation = {
  id: 'listCategories',
  method: 'GET',
  path: '/categories',
  statuses: [200],
  run: () => jsonResponse(200, [{ id: 1, name: 'Dogs' }]),
}
const deletePet: Operation = {
  id: 'DELETE /pets/{id}',
  method: 'DELETE',
  path: '/pets/{id}',
  run: ({ params }) => jsonResponse(200, { deleted: params.id }),
}

const get = (path: string, key?: string) => ({
  method: 'GET',
  url: `https://api.example.test/v1${path}`,
  headers: key === undefined ? {} : { authorization: `Bearer ${key}` },
  body: null,
})

describe('a sandbox route table (decision 0042)', () => {
  it('is the contract table itself when nothing is added', () => {
    expect(createRouteTable([])).toBe(CONTRACT_ROUTES)
    expect(createSandboxCore().operations).toBe(CONTRACT_ROUTES.operations)
  })

  it('routes an added operation through the whole pipeline: key, quota, journal, coverage', async () => {
    const sandbox = createSandboxCore({ seed: 1 }, { operations: [categories] })
    expect(sandbox.operations.map((o) => o.id)).toEqual([
      'listPets',
      'createPet',
      'getPet',
      'listCategories',
    ])
    expect((await sandbox.handle(get('/categories')))?.status).toBe(401)
    const ok = await sandbox.handle(get('/categories', 'sandbox-free'))
    expect(ok?.status).toBe(200)
    expect(ok?.headers['X-RateLimit-Limit']).toBe('60')
    const pets = await sandbox.handle(get('/pets', 'sandbox-free'))
    // One quota: the categories call took one of the key's 60.
    expect(pets?.headers['X-RateLimit-Remaining']).toBe('58')
    expect(sandbox.journal.list().map((e) => e.operation)).toEqual([
      'listCategories',
      'listCategories',
      'listPets',
    ])
    const coverage = await sandbox.coverage()
    const mine = coverage.operations.find((o) => o.operation === 'listCategories')
    expect(mine).toMatchObject({ method: 'GET', path: '/categories', requests: 2 })
    expect(mine?.statuses).toEqual([
      { status: 200, count: 1 },
      { status: 401, count: 1 },
      { status: 429, count: 0 },
      { status: 500, count: 0 },
      { status: 503, count: 0 },
    ])
    await expect(
      sandbox.requests.expect({ operation: 'listCategories' }, { times: 2 }),
    ).resolves.toHaveLength(2)
  })

  it('gives a new method on a contract path its own route, and 405 lists every method', async () => {
    const sandbox = createSandboxCore({ seed: 1 }, { operations: [deletePet] })
    const deleted = await sandbox.handle({ ...get('/pets/7', 'sandbox-free'), method: 'DELETE' })
    expect(deleted?.body).toBe('{"deleted":"7"}')
    expect((await sandbox.handle(get('/pets/7', 'sandbox-free')))?.status).toBe(200)
    const put = await sandbox.handle({ ...get('/pets/7', 'sandbox-free'), method: 'PUT' })
    expect(put?.status).toBe(405)
    expect(put?.headers.Allow).toBe('GET, HEAD, DELETE, OPTIONS')
  })

  it('answers a public added operation without a key, quota or rate-limit headers, and journals it', async () => {
    const sandbox = createSandboxCore({}, { operations: [{ ...categories, access: 'public' }] })
    const ok = await sandbox.handle(get('/categories'))
    expect(ok?.status).toBe(200)
    expect(ok?.headers['X-RateLimit-Limit']).toBeUndefined()
    expect(sandbox.journal.list()[0]?.operation).toBe('listCategories')
  })

  it.each([
    [{ ...categories, id: 'getPet' }, /repeats the id of one of the contract's operations/],
    [{ ...categories, path: '/pets/{x}' }, /redefines the contract's GET \/pets\/\{x\}/],
    [{ ...categories, id: '' }, /needs an id of 1-200 characters/],
    [{ ...categories, method: 'TRACE' as 'GET' }, /has method TRACE/],
    [{ ...categories, path: 'categories' }, /needs a path template below the base path/],
    [{ ...categories, path: '/a b' }, /neither a literal segment nor \{param\}/],
  ])('refuses an added operation that is not one: %#', (operation, message) => {
    expect(() => createSandboxCore({}, { operations: [operation] })).toThrow(message)
  })

  it('refuses two added operations with one id', () => {
    expect(() =>
      createSandboxCore({}, { operations: [categories, { ...categories, path: '/kinds' }] }),
    ).toThrow(/repeats the id of another operation/)
  })
})
