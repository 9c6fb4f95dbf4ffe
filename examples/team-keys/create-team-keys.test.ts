import { createSandboxServer, type SandboxServer } from 'petstore-sandbox/server'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTeamKeys } from './create-team-keys.js'

// A shared stand-in with an admin token, as a team runs it; a key per person.
const ADMIN = 'team-admin-token'
let server: SandboxServer
let origin: string

beforeAll(async () => {
  server = createSandboxServer({ adminToken: ADMIN })
  origin = (await server.listen(0, '127.0.0.1')).url
})
afterAll(() => server?.close())

const as = (key: string, path: string, init: RequestInit = {}) =>
  fetch(`${origin}/v1${path}`, {
    ...init,
    headers: { authorization: `Bearer ${key}`, ...init.headers },
  })
const total = async (key: string) => (await as(key, '/pets?limit=1')).headers.get('x-total-count')

it('keeps each person in their own session by their key alone', async () => {
  const keys = await createTeamKeys({ origin, people: ['alice', 'bob'], adminToken: ADMIN })
  const { alice = '', bob = '' } = keys
  expect(alice).not.toBe(bob)

  const created = await as(alice, '/pets', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: "Alice's cat", categoryId: 1 }),
  })
  expect(created.status).toBe(201)
  // Alice makes `empty` sticky in her session: the control API with ?__session=alice.
  const scenario = await fetch(`${origin}/__sandbox/scenario?__session=alice`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'empty' }),
  })
  expect(scenario.status).toBe(200)

  expect(await total(alice)).toBe('0')
  expect((await as(alice, '/pets?limit=1&__scenario=default')).headers.get('x-total-count')).toBe(
    '26',
  )
  expect(await total(bob)).toBe('25')
  expect(await total('sandbox-pro')).toBe('25')
  // A key lands in its own session whatever session the request names.
  const elsewhere = await as(bob, '/pets?limit=1', { headers: { 'x-sandbox-session': 'alice' } })
  expect(elsewhere.headers.get('x-total-count')).toBe('25')
})

it('says why when a key cannot be created', async () => {
  await expect(createTeamKeys({ origin, people: ['carol'] })).rejects.toThrow(
    /Failed to create a key for "carol": 403/,
  )
  await expect(
    createTeamKeys({ origin, people: ['no spaces'], adminToken: ADMIN }),
  ).rejects.toThrow(/Failed to create a key for "no spaces": 400/)
})
