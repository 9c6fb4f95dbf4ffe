import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandboxServer } from '../../src/server/index.js'

// Issue 15, point 7: where to start (GET /, the bare base path), the clock back
// to real time over HTTP, and 409 key_exists for a key text in use.
const app = createSandboxServer({ now: () => Date.parse('2026-06-01T12:00:00Z') })
let origin = ''
beforeAll(async () => {
  origin = (await app.listen(0, '127.0.0.1')).url
})
afterAll(() => app.close())

const json = { 'content-type': 'application/json' }
const post = (path: string, body: unknown) =>
  fetch(`${origin}/__sandbox${path}`, { method: 'POST', headers: json, body: JSON.stringify(body) })

describe('where to start on the server', () => {
  it('answers GET / with JSON links to the API, the dashboard, the OpenAPI document and the API reference', async () => {
    const response = await fetch(`${origin}/`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(await response.json()).toMatchObject({
      name: 'petstore-sandbox',
      api: `${origin}/v1`,
      dashboard: `${origin}/__sandbox/`,
      openapi: `${origin}/__sandbox/openapi.json`,
      docs: `${origin}/__sandbox/docs`,
    })
    expect((await fetch(`${origin}/__sandbox/openapi.json`)).status).toBe(200)
  })

  it('answers 405 with Allow for another method on /, and 404 elsewhere as before', async () => {
    const wrong = await fetch(`${origin}/`, { method: 'DELETE' })
    expect(wrong.status).toBe(405)
    expect(wrong.headers.get('allow')).toBe('GET, HEAD')
    expect(await (await fetch(`${origin}/nothing`)).json()).toMatchObject({
      code: 'route_not_found',
    })
  })

  it('names the routes, the dashboard and the OpenAPI document in the 404 for the bare base path', async () => {
    const response = await fetch(`${origin}/v1`, {
      headers: { authorization: 'Bearer sandbox-free' },
    })
    expect(response.status).toBe(404)
    const { code, message } = (await response.json()) as { code: string; message: string }
    expect(code).toBe('route_not_found')
    expect(message).toBe(
      `No route matches /v1. The API's routes: /v1/pets, /v1/pets/{petId}. Dashboard: ${origin}/__sandbox/; OpenAPI document: ${origin}/__sandbox/openapi.json.`,
    )
    // Other unknown paths keep the short message.
    const other = (await (
      await fetch(`${origin}/v1/owners`, { headers: { authorization: 'Bearer sandbox-free' } })
    ).json()) as { message: string }
    expect(other.message).toBe('No route matches /v1/owners.')
  })
})

describe('POST /__sandbox/clock {"realTime": true}', () => {
  it('returns a frozen clock to real time', async () => {
    expect(await (await post('/clock', { now: '2030-01-01T00:00:00Z' })).json()).toEqual({
      now: '2030-01-01T00:00:00.000Z',
      frozen: true,
    })
    const back = await post('/clock', { realTime: true })
    expect(back.status).toBe(200)
    expect(await back.json()).toEqual({ now: '2026-06-01T12:00:00.000Z', frozen: false })
  })

  it.each([[{ realTime: false }], [{ realTime: true, advanceMs: 1 }]])(
    'answers 400 validation_failed for %j',
    async (body) => {
      const response = await post('/clock', body)
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ code: 'validation_failed' })
    },
  )
})

describe('POST /__sandbox/keys', () => {
  it('answers 409 key_exists naming the field key for a key text in use, demo keys included', async () => {
    expect((await post('/keys', { plan: 'pro', key: 'team-key' })).status).toBe(201)
    for (const key of ['team-key', 'sandbox-free']) {
      const again = await post('/keys', { plan: 'free', key })
      expect(again.status).toBe(409)
      expect(await again.json()).toEqual({
        code: 'key_exists',
        message: `An API key "${key}" exists already. Revoke it first or choose another key.`,
        status: 409,
        details: [{ field: 'key', message: 'exists already' }],
      })
    }
  })

  it.each([
    [{ plan: 'pro', perMinute: 5 }, 'perMinute'],
    [{ plan: 'free', perDay: 5 }, 'perDay'],
    [{ plan: 'pro', key: 'has space' }, 'key'],
  ])('answers 400 validation_failed for %j, naming %s', async (body, field) => {
    const response = await post('/keys', body)
    expect(response.status).toBe(400)
    const answer = (await response.json()) as { code: string; details: { field: string }[] }
    expect(answer.code).toBe('validation_failed')
    expect(answer.details.map((d) => d.field)).toEqual([field])
  })
})

describe('the control API’s 404 (issue 21)', () => {
  it('names the control API’s routes and the dashboard instead of pointing to the README', async () => {
    const response = await fetch(`${origin}/__sandbox/nope`)
    expect(response.status).toBe(404)
    const body = (await response.json()) as { code: string; message: string }
    expect(body.code).toBe('route_not_found')
    expect(body.message).toMatch(/^No route matches \/__sandbox\/nope\. The control API's routes: /)
    for (const route of [
      'POST /__sandbox/reset',
      'GET|PUT /__sandbox/scenario',
      'GET|POST /__sandbox/clock',
      'GET|POST /__sandbox/keys',
      'DELETE /__sandbox/keys/{key}',
      'GET|DELETE /__sandbox/requests',
      'GET /__sandbox/requests.har',
      'GET /__sandbox/sessions',
      'DELETE /__sandbox/sessions/{id}',
      'GET /__sandbox/openapi.json',
      'the dashboard is GET /__sandbox/.',
    ])
      expect(body.message).toContain(route)
    expect(body.message).not.toContain('README')
  })
})
