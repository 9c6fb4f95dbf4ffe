import { setupSandbox } from 'petstore-sandbox/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createPetClient, PetApiError } from './pet-client.js'

// The three-line set-up: intercept in every test, start each test from the seeded pets.
const sandbox = setupSandbox()
beforeAll(() => sandbox.listen())
afterEach(() => sandbox.reset())
afterAll(() => sandbox.close())

const BASE_URL = 'https://api.example.test/v1'
const client = createPetClient({ baseUrl: BASE_URL, apiKey: 'sandbox-free' })

describe('pet client', () => {
  it('lists only available pets', async () => {
    const pets = await client.listAvailablePets()
    expect(pets.length).toBeGreaterThan(0)
    expect(pets.every((pet) => pet.status === 'available')).toBe(true)
  })

  it('follows the next links to the last page', async () => {
    const smallPages = createPetClient({ baseUrl: BASE_URL, apiKey: 'sandbox-free', pageSize: 4 })
    const pets = await smallPages.listAvailablePets()
    // The sandbox's data is at hand to compute the expected answer.
    const expected = sandbox.db.pets.list({ status: 'available', limit: 100 }).pets
    expect(pets).toEqual(expected)
    // The journal shows what the client sent: one request per page.
    const requests = sandbox.journal.list()
    expect(requests).toHaveLength(Math.ceil(expected.length / 4))
    expect(requests.every((r) => r.status === 200 && r.plan === 'free')).toBe(true)
  })

  it('lists a pet once it has been added', async () => {
    const rex = await client.addPet({ name: 'Rex', categoryId: 2 })
    expect(rex).toMatchObject({ name: 'Rex', categoryId: 2, status: 'available' })
    expect(await client.listAvailablePets()).toContainEqual(rex)
  })

  it('reports every validation problem of a rejected pet', async () => {
    const error = await client.addPet({ name: ' ', categoryId: 0 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(PetApiError)
    expect(error).toMatchObject({ status: 400, code: 'validation_failed' })
    expect((error as PetApiError).details.map((d) => d.field).sort()).toEqual([
      'categoryId',
      'name',
    ])
  })

  it('fails with invalid_api_key once its key is revoked', async () => {
    const { key } = sandbox.keys.create({ plan: 'pro' })
    const own = createPetClient({ baseUrl: BASE_URL, apiKey: key })
    await expect(own.listAvailablePets()).resolves.not.toHaveLength(0)
    sandbox.keys.revoke(key)
    await expect(own.listAvailablePets()).rejects.toMatchObject({
      status: 401,
      code: 'invalid_api_key',
    })
  })

  it('surfaces the rate limit of the free plan without waiting a minute', async () => {
    // Freeze the clock at the start of a minute, spend the quota, and look at the 61st call.
    sandbox.clock.set('2030-01-01T12:00:00Z')
    for (let i = 0; i < 60; i++) await client.listAvailablePets()
    await expect(client.listAvailablePets()).rejects.toMatchObject({
      status: 429,
      code: 'rate_limit_exceeded',
    })
    sandbox.clock.advance(60_000)
    await expect(client.listAvailablePets()).resolves.not.toHaveLength(0)
  })
})
