import { setupSandbox } from 'petstore-sandbox/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createCategorySoldOutScenario } from './category-sold-out.js'
import { findAvailablePets } from './find-available-pets.js'

const baseUrl = 'https://api.example.test/v1'
const sandbox = setupSandbox({ scenarios: [createCategorySoldOutScenario(3)] })
beforeAll(() => sandbox.listen())
afterEach(() => sandbox.reset())
afterAll(() => sandbox.close())

const find = (categoryId: number, headers: Record<string, string> = {}) =>
  findAvailablePets({ baseUrl, apiKey: 'sandbox-free', categoryId, headers })

describe('a "category 3 is sold out" scenario of your own', () => {
  it('finds available pets of category 3 in the default scenario', async () => {
    expect((await find(3)).length).toBeGreaterThan(0)
  })

  it('finds none when the request asks for the scenario in its header', async () => {
    expect(await find(3, { 'x-sandbox-scenario': 'category-3-sold-out' })).toEqual([])
    expect((await find(1, { 'x-sandbox-scenario': 'category-3-sold-out' })).length).toBeGreaterThan(
      0,
    )
  })

  it('finds none while the scenario is sticky, and some again after reset', async () => {
    sandbox.scenario.set('category-3-sold-out')
    expect(await find(3)).toEqual([])
    await sandbox.reset()
    expect((await find(3)).length).toBeGreaterThan(0)
  })
})
