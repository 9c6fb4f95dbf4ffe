import { HttpResponse, http } from 'msw'
import { setupSandbox } from 'petstore-sandbox/node'
import { renderPets } from './pet-list.js'

const API = 'https://api.example.test/v1'
const sandbox = setupSandbox({
  handlers: [http.get('*/v1/categories', () => HttpResponse.json([{ id: 1, name: 'Cats' }]))],
})
beforeAll(() => sandbox.listen())
afterEach(() => sandbox.reset())
afterAll(() => sandbox.close())

const render = async (apiKey = 'sandbox-free') => {
  const list = document.createElement('ul')
  document.body.replaceChildren(list)
  await renderPets({ apiUrl: API, apiKey, list })
  return [...list.querySelectorAll('li')].map((item) => item.textContent)
}

test('renders the seeded pets in a jsdom document', async () => {
  const names = await render()
  expect(names).toHaveLength(5)
  expect(names).toEqual(sandbox.db.pets.list({ limit: 5 }).pets.map((pet) => pet.name))
})

test('shows the error code of a forced 503', async () => {
  sandbox.scenario.set('unavailable')
  expect(await render()).toEqual(['service_unavailable'])
})

test('shows 401 for a revoked key', async () => {
  sandbox.keys.revoke('sandbox-free')
  expect(await render()).toEqual(['invalid_api_key'])
})

test('answers your own handler under /v1, and 404 for an unknown path', async () => {
  const headers = { authorization: 'Bearer sandbox-free' }
  expect(await (await fetch(`${API}/categories`, { headers })).json()).toEqual([
    { id: 1, name: 'Cats' },
  ])
  expect((await fetch(`${API}/owners`, { headers })).status).toBe(404)
})

test('asks for five pets with the key, once', async () => {
  await render()
  await expect(sandbox).toHaveReceived(
    {
      method: 'GET',
      path: '/v1/pets',
      query: { limit: 5 },
      headers: { authorization: 'Bearer sandbox-free' },
    },
    1,
  )
  await expect(sandbox).not.toHaveReceived({ path: '/v1/pets/:petId' })
})

test('runs on the jsdom environment', () => {
  expect(typeof window).toBe('object')
  expect(navigator.userAgent).toContain('jsdom')
})
