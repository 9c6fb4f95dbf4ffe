import { describe, expect, it } from 'vitest'
import { createSandbox } from '../../src/handlers/create-sandbox.js'
import type { SandboxRequest } from '../../src/http/types.js'

const request = (path: string, authorization?: string): SandboxRequest => ({
  method: 'GET',
  url: `https://api.example.test/v1${path}`,
  headers: authorization === undefined ? {} : { authorization },
  body: null,
})

describe('the request journal of a sandbox', () => {
  it('records each answered request with its status, plan and a redacted Authorization', async () => {
    const sandbox = createSandbox()
    sandbox.clock.set('2030-01-01T00:00:00Z')
    await sandbox.handle(request('/pets?limit=2', 'Bearer sandbox-enterprise'))
    await sandbox.handle(request('/pets/999', 'Bearer sk_secret_value'))
    const [ok, unknown] = sandbox.journal.list()
    expect(ok).toMatchObject({
      method: 'GET',
      url: 'https://api.example.test/v1/pets?limit=2',
      session: 'default',
      status: 200,
      plan: 'enterprise',
      time: '2030-01-01T00:00:00.000Z',
    })
    expect(ok?.request.headers.authorization).toBe('Bearer sand…(redacted)')
    expect(unknown).toMatchObject({ status: 401, plan: undefined })
    expect(JSON.stringify(sandbox.journal.list())).not.toContain('secret')
  })

  it('keeps only journalSize requests and ignores requests outside the API', async () => {
    const sandbox = createSandbox({ journalSize: 2 })
    for (const id of [1, 2, 3]) {
      await sandbox.handle(request(`/pets/${id}`, 'Bearer sandbox-enterprise'))
    }
    expect(await sandbox.handle({ ...request(''), url: 'https://api.example.test/v2/pets' })).toBe(
      null,
    )
    expect(sandbox.journal.list().map((entry) => entry.url)).toEqual([
      'https://api.example.test/v1/pets/2',
      'https://api.example.test/v1/pets/3',
    ])
  })

  it('empties on clear and on reset', async () => {
    const sandbox = createSandbox()
    await sandbox.handle(request('/pets', 'Bearer sandbox-free'))
    sandbox.journal.clear()
    expect(sandbox.journal.list()).toEqual([])
    await sandbox.handle(request('/pets', 'Bearer sandbox-free'))
    await sandbox.reset()
    expect(sandbox.journal.list()).toEqual([])
  })
})
