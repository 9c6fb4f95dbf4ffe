import { setupSandbox } from 'petstore-sandbox/node'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'

const sandbox = setupSandbox()
beforeAll(() => sandbox.listen())
afterEach(() => sandbox.reset())
afterAll(() => sandbox.close())

const PETS = 'https://api.example.test/v1/pets'
const headers = { authorization: 'Bearer sandbox-free', 'content-type': 'application/json' }

// Your client: a GET is safe to repeat, so a body that breaks is retried.
const listPets = async (query = ''): Promise<unknown[]> => {
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(`${PETS}${query}`, { headers })
      if (!response.headers.get('content-type')?.startsWith('application/json'))
        throw new Error(`Not the API's answer: ${response.status}`)
      return (await response.json()) as unknown[]
    } catch (error) {
      if (attempt === 3) throw error
      sandbox.scenario.set('default') // in a real client: wait, with back-off
    }
  }
}

// Your client: a create is not safe to repeat; after a failure, look before sending it again.
const createPet = async (pet: { name: string; categoryId: number }) => {
  try {
    const response = await fetch(PETS, { method: 'POST', headers, body: JSON.stringify(pet) })
    return (await response.json()) as { id: number }
  } catch {
    sandbox.scenario.set('default') // in a real client: wait, with back-off
    const pets = (await listPets('?limit=100')) as { id: number; name: string }[]
    const found = pets.find((p) => p.name === pet.name)
    if (found !== undefined) return found
    const again = await fetch(PETS, { method: 'POST', headers, body: JSON.stringify(pet) })
    return (await again.json()) as { id: number }
  }
}

it('retries a list whose body broke halfway (reset-mid-body)', async () => {
  sandbox.scenario.set('reset-mid-body')
  expect(await listPets()).toHaveLength(20)
})

it('does not parse a gateway page as JSON (proxy-error)', async () => {
  const response = await fetch(`${PETS}?__scenario=proxy-error`, { headers })
  expect(response.status).toBe(502)
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
})

it('fails with a SyntaxError on a cut JSON body (malformed-json)', async () => {
  const response = await fetch(`${PETS}?__scenario=malformed-json`, { headers })
  await expect(response.json()).rejects.toThrow(SyntaxError)
})

it('reads back instead of creating twice when the answer is lost (commit-then-drop)', async () => {
  sandbox.scenario.set('commit-then-drop')
  const pet = await createPet({ name: 'Biscuit', categoryId: 1 })
  expect(pet.id).toBeGreaterThan(0)
  const all = (await listPets('?limit=100')) as { name: string }[]
  expect(all.filter((p) => p.name === 'Biscuit')).toHaveLength(1)
  expect((await sandbox.report()).findings).toEqual([])
})
