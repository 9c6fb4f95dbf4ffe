import { setupSandbox } from 'petstore-sandbox/node'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'

const sandbox = setupSandbox()
beforeAll(() => sandbox.listen())
afterEach(() => sandbox.reset({ sessions: 'all' })) // drops every session a test made
afterAll(() => sandbox.close())

const PETS = 'https://api.example.test/v1/pets'
const inSession = (session: string) => ({
  authorization: 'Bearer sandbox-free',
  'content-type': 'application/json',
  'x-sandbox-session': session,
})

it('keeps a session’s pets, scenario and clock to itself', async () => {
  await fetch(PETS, {
    method: 'POST',
    headers: inSession('alice'),
    body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
  })
  sandbox.session('bob').scenario.set('empty')
  const count = async (session: string) =>
    (await fetch(PETS, { headers: inSession(session) })).headers.get('x-total-count')
  expect(await count('alice')).toBe('26')
  expect(await count('bob')).toBe('0')
  expect(await count('default')).toBe('25')
  expect(sandbox.sessions.list().map((s) => s.id)).toEqual(['default', 'alice', 'bob'])
})

it('starts every test with no session but default', () => {
  expect(sandbox.sessions.list().map((s) => s.id)).toEqual(['default'])
})
