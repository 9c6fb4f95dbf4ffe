import 'petstore-sandbox/vitest' // adds expect(sandbox).toHaveReceived(match, times?)
import { setupSandbox } from 'petstore-sandbox/node'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { getPet, listAvailable } from './pet-client.js'

const sandbox = setupSandbox()
beforeAll(() => sandbox.listen())
afterEach(() => sandbox.reset())
afterAll(() => sandbox.close())

// The client waits by moving the sandbox clock: no test waits a real second.
const client = {
  api: 'https://api.example.test/v1',
  key: 'sandbox-free',
  sleep: async (ms: number) => sandbox.clock.advance(ms),
}

it('asks for the available pets once, with its key in the header', async () => {
  await listAvailable(client)
  await expect(sandbox).toHaveReceived(
    {
      method: 'GET',
      path: '/v1/pets',
      query: { status: 'available' },
      headers: { authorization: 'Bearer sandbox-free' },
    },
    1,
  )
})

it('backs off while the service is unavailable, and the report has nothing to say', async () => {
  sandbox.scenario.set('unavailable') // every answer: 503 with Retry-After: 5
  await listAvailable(client)
  expect(await sandbox.requests.find({ status: 503 })).toHaveLength(5)
  expect((await sandbox.report()).findings).toEqual([])
})

it('is told that fetching one pet uses the deprecated getPet', async () => {
  await getPet(client, 1)
  const { findings } = await sandbox.report()
  expect(findings).toMatchObject([{ rule: 'deprecated-operation', level: 'warning' }])
})
