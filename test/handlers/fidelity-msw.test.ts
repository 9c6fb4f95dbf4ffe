import { setupServer } from 'msw/node'
import { afterEach, describe, expect, it } from 'vitest'
import { createSandbox, type SandboxOptions } from '../../src/index.js'

const BASE = 'https://api.example.test/v1'
let stop: (() => void) | undefined
afterEach(() => stop?.())

const serve = (options: SandboxOptions) => {
  const sandbox = createSandbox(options)
  const server = setupServer(...sandbox.handlers)
  server.listen({ onUnhandledRequest: 'error' })
  stop = () => server.close()
  return sandbox
}

const post = (body: string) =>
  fetch(`${BASE}/pets`, {
    method: 'POST',
    headers: { authorization: 'Bearer sandbox-enterprise', 'content-type': 'application/json' },
    body,
  })

describe('the fidelity settings through MSW (setupServer)', () => {
  it('reads bodies up to a larger maxBodyBytes', async () => {
    serve({ maxBodyBytes: 200_000 })
    const body = JSON.stringify({ name: 'Rex', categoryId: 1 }) + ' '.repeat(150_000)
    expect((await post(body)).status).toBe(201)
    expect((await post(' '.repeat(200_001))).status).toBe(413)
  })

  it('refuses bodies over a smaller maxBodyBytes, saying the limit', async () => {
    serve({ maxBodyBytes: 2_048 })
    const response = await post(' '.repeat(3_000))
    expect(response.status).toBe(413)
    expect(await response.json()).toMatchObject({
      code: 'payload_too_large',
      message: 'The request body is larger than 2048 bytes.',
    })
  })

  it('pages with offset and renames codes', async () => {
    serve({ pagination: 'offset', errorCodes: { pet_not_found: 'not_found' } })
    const page = await fetch(`${BASE}/pets?limit=5&offset=5`, {
      headers: { authorization: 'Bearer sandbox-enterprise' },
    })
    expect(((await page.json()) as { id: number }[]).map((p) => p.id)).toEqual([6, 7, 8, 9, 10])
    expect(page.headers.get('link')).toContain('offset=10')
    const missing = await fetch(`${BASE}/pets/999`, {
      headers: { authorization: 'Bearer sandbox-enterprise' },
    })
    expect(await missing.json()).toMatchObject({ code: 'not_found', status: 404 })
  })
})
