import { setupSandbox } from 'petstore-sandbox/node'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'

const sandbox = setupSandbox()
beforeAll(() => sandbox.listen())
afterEach(() => sandbox.reset())
afterAll(() => sandbox.close())

it('lists the pets', async () => {
  // Your client now talks to the sandbox, at any origin whose path starts with /v1:
  const response = await fetch('https://api.example.test/v1/pets', {
    headers: { authorization: 'Bearer sandbox-free' },
  })
  expect(response.status).toBe(200)
  expect(await response.json()).toHaveLength(20)
})
