import 'petstore-sandbox/vitest'
import { setupSandbox } from 'petstore-sandbox/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'

// The vitest matcher of issue 23, installed by `import 'petstore-sandbox/vitest'`.
const sandbox = setupSandbox()
beforeAll(() => sandbox.listen())
afterEach(() => sandbox.reset())
afterAll(() => sandbox.close())

const API = 'https://api.example.test/v1'

describe('toHaveReceived', () => {
  it('passes when the journal holds the request, as often as asked', async () => {
    await fetch(`${API}/pets?limit=2`, { headers: { authorization: 'Bearer sandbox-free' } })
    await expect(sandbox).toHaveReceived({ method: 'GET', path: '/v1/pets', query: { limit: 2 } })
    await expect(sandbox).toHaveReceived({ status: 200 }, 1)
    await expect(sandbox).not.toHaveReceived({ method: 'POST' })
    await expect(sandbox).not.toHaveReceived({ status: 200 }, 2)
    await expect(sandbox.session('other')).not.toHaveReceived({})
  })

  it('fails with the nearest misses as a diff', async () => {
    await fetch(`${API}/pets?limit=3`, { headers: { authorization: 'Bearer sandbox-free' } })
    await expect(
      expect(sandbox).toHaveReceived({ path: '/v1/pets', query: { limit: 2 } }),
    ).rejects.toThrow(
      /Nearest misses \(- expected, \+ received\):\n\n {2}#\d+ GET \/v1\/pets\?limit=3 → 200\n {4}query\.limit\n {6}- "2"\n {6}\+ "3"/,
    )
  })

  it('fails a negated expectation naming the requests that matched', async () => {
    await fetch(`${API}/pets/1`, { headers: { authorization: 'Bearer sandbox-free' } })
    await expect(expect(sandbox).not.toHaveReceived({ operation: 'getPet' })).rejects.toThrow(
      /^Expected no request matching operation getPet; received 1: #\d+ GET \/v1\/pets\/1 → 200\.$/,
    )
  })

  it('refuses what is not a sandbox', async () => {
    await expect(expect({}).toHaveReceived({})).rejects.toThrow(
      'Failed to check toHaveReceived: expect() was given object, not a sandbox.',
    )
  })
})
