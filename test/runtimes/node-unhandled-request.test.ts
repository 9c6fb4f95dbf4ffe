import { afterAll, beforeAll, expect, it } from 'vitest'
import { setupSandbox } from '../../src/runtimes/node.js'

// Issue 21, point 3: onUnhandledRequest takes msw's callback form, and msw calls it.
const seen: string[] = []
const sandbox = setupSandbox({
  onUnhandledRequest: (request, print) => {
    seen.push(`${request.method} ${request.url}`)
    if (new URL(request.url).hostname === 'forbidden.test') print.error()
  },
})
beforeAll(() => sandbox.listen())
afterAll(() => sandbox.close())

it('hands a request nobody answers to your callback, and the API still to the sandbox', async () => {
  const answered = await fetch('https://api.example.test/v1/pets', {
    headers: { authorization: 'Bearer sandbox-free' },
  })
  expect(answered.status).toBe(200)
  await fetch('http://127.0.0.1:9/elsewhere').catch(() => undefined)
  expect(seen).toEqual(['GET http://127.0.0.1:9/elsewhere'])
})
