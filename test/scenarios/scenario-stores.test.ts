import { beforeEach, describe, expect, it } from 'vitest'
import { createSandbox, defineScenario } from '../../src/index.js'
import { callSandbox } from './call-sandbox.js'

const soldOut = defineScenario({
  name: 'few-pets',
  description: 'Three seeded pets.',
  store: ({ seededPets }) => seededPets(3),
})
const sandbox = createSandbox({ scenarios: [soldOut] })
beforeEach(() => sandbox.reset())

const newPet = { name: 'Rex', categoryId: 2 }

describe('the empty scenario', () => {
  it('lists no pets with X-Total-Count 0 and no Link', async () => {
    const response = await callSandbox(sandbox, { path: '/pets?__scenario=empty' })
    expect(response.status).toBe(200)
    expect(response.json).toEqual([])
    expect(response.headers['X-Total-Count']).toBe('0')
    expect(response.headers.Link).toBeUndefined()
  })

  it('answers getPet 404 pet_not_found for a seeded id', async () => {
    const response = await callSandbox(sandbox, { path: '/pets/1?__scenario=empty' })
    expect(response.status).toBe(404)
    expect(response.json).toMatchObject({ code: 'pet_not_found' })
  })

  it('creates pets in its own store, from id 1, never in the default store', async () => {
    const created = await callSandbox(sandbox, {
      method: 'POST',
      path: '/pets?__scenario=empty',
      body: newPet,
    })
    expect(created.status).toBe(201)
    expect(created.json).toEqual({ id: 1, name: 'Rex', categoryId: 2, status: 'available' })
    const list = await callSandbox(sandbox, { path: '/pets?__scenario=empty' })
    expect(list.json).toEqual([created.json])
    const fetched = await callSandbox(sandbox, { path: '/pets/1?__scenario=empty' })
    expect(fetched.json).toEqual(created.json)
    expect(sandbox.db.pets.count).toBe(25)
    expect(sandbox.db.pets.get(1)?.name).not.toBe('Rex')
  })

  it('is empty again after reset', async () => {
    await callSandbox(sandbox, { method: 'POST', path: '/pets?__scenario=empty', body: newPet })
    await sandbox.reset()
    const list = await callSandbox(sandbox, { path: '/pets?__scenario=empty' })
    expect(list.json).toEqual([])
  })

  it('validates createPet as the default does', async () => {
    const response = await callSandbox(sandbox, {
      method: 'POST',
      path: '/pets?__scenario=empty',
      body: { name: '' },
    })
    expect(response.status).toBe(400)
    expect(response.json).toMatchObject({ code: 'validation_failed' })
  })
})

describe('the paginated scenario', () => {
  it('holds 250 pets whose first ones are the default seeded pets', async () => {
    const response = await callSandbox(sandbox, { path: '/pets?__scenario=paginated&limit=100' })
    expect(response.headers['X-Total-Count']).toBe('250')
    const pets = response.json as { id: number }[]
    expect(pets.map((p) => p.id)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1))
    expect(pets.slice(0, 25)).toEqual(sandbox.db.pets.list({ limit: 25 }).pets)
  })

  it('pages through all 250 pets by following the next links', async () => {
    const ids: number[] = []
    let path: string | undefined = '/pets?limit=100'
    while (path !== undefined) {
      const response = await callSandbox(sandbox, {
        path,
        headers: { 'x-sandbox-scenario': 'paginated' },
      })
      ids.push(...(response.json as { id: number }[]).map((p) => p.id))
      const next = /<https:\/\/api\.example\.test\/v1([^>]+)>; rel="next"/.exec(
        response.headers.Link ?? '',
      )
      path = next?.[1]
    }
    expect(ids).toEqual(Array.from({ length: 250 }, (_, i) => i + 1))
  })

  it('answers getPet for ids up to 250 and 404 beyond', async () => {
    expect((await callSandbox(sandbox, { path: '/pets/250?__scenario=paginated' })).status).toBe(
      200,
    )
    expect((await callSandbox(sandbox, { path: '/pets/251?__scenario=paginated' })).status).toBe(
      404,
    )
  })

  it('gives created pets id 251 in its own store', async () => {
    const created = await callSandbox(sandbox, {
      method: 'POST',
      path: '/pets?__scenario=paginated',
      body: newPet,
    })
    expect(created.json).toMatchObject({ id: 251 })
    expect(sandbox.db.pets.count).toBe(25)
  })

  it('builds its store once and keeps it across requests', async () => {
    await callSandbox(sandbox, { method: 'POST', path: '/pets?__scenario=paginated', body: newPet })
    const list = await callSandbox(sandbox, { path: '/pets?__scenario=paginated' })
    expect(list.headers['X-Total-Count']).toBe('251')
  })
})

describe('a scenario store of your own', () => {
  it('starts with the pets its store hook returns', async () => {
    const response = await callSandbox(sandbox, { path: '/pets?__scenario=few-pets' })
    expect((response.json as unknown[]).length).toBe(3)
    expect(response.headers['X-Total-Count']).toBe('3')
  })

  it('keeps each sandbox’s scenario store apart', async () => {
    const other = createSandbox({ scenarios: [soldOut] })
    await callSandbox(sandbox, { method: 'POST', path: '/pets?__scenario=few-pets', body: newPet })
    const list = await callSandbox(other, { path: '/pets?__scenario=few-pets' })
    expect(list.headers['X-Total-Count']).toBe('3')
  })

  it('answers 500 internal_error when the store hook throws, and reports it', async () => {
    const errors: unknown[] = []
    const broken = createSandbox({
      onError: (error) => errors.push(error),
      scenarios: [
        defineScenario({
          name: 'broken',
          description: 'A store hook with a bug.',
          store: () => {
            throw new Error('bug')
          },
        }),
      ],
    })
    const response = await callSandbox(broken, { path: '/pets?__scenario=broken' })
    expect(response.status).toBe(500)
    expect(errors).toHaveLength(1)
  })
})
