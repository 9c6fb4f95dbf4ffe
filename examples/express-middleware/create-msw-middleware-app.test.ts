import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMswMiddlewareApp } from './create-msw-middleware-app.js'

const { app, sandbox } = createMswMiddlewareApp()
let server: Server
let origin = ''
beforeAll(async () => {
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s))
  })
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const auth = { authorization: 'Bearer sandbox-free' }

describe('createMiddleware(...sandbox.handlers) from @mswjs/http-middleware in express', () => {
  it('answers the API with the contract, rate-limit headers included', async () => {
    const response = await fetch(`${origin}/v1/pets?limit=2`, { headers: auth })
    expect(response.status).toBe(200)
    expect(response.headers.get('x-ratelimit-limit')).toBe('60')
    expect(response.headers.get('x-total-count')).toBe('5')
    expect(response.headers.get('link')).toMatch(/rel="next"/)
    expect(((await response.json()) as unknown[]).length).toBe(2)
  })

  it('creates a pet from the streamed body and refuses malformed JSON', async () => {
    const created = await fetch(`${origin}/v1/pets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"name":"Middleware","categoryId":2}',
    })
    expect(created.status).toBe(201)
    expect(await created.json()).toMatchObject({ id: 6, name: 'Middleware' })
    expect(sandbox.db.pets.count).toBe(6)
    const broken = await fetch(`${origin}/v1/pets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"name":',
    })
    expect(await broken.json()).toMatchObject({ code: 'malformed_json', status: 400 })
  })

  it('answers 401, 404 route_not_found and forced scenarios as JSON errors', async () => {
    expect(await (await fetch(`${origin}/v1/pets`)).json()).toMatchObject({
      code: 'missing_api_key',
    })
    expect(await (await fetch(`${origin}/v1/owners`, { headers: auth })).json()).toMatchObject({
      code: 'route_not_found',
    })
    const forced = await fetch(`${origin}/v1/pets?__scenario=unavailable`, { headers: auth })
    expect(forced.status).toBe(503)
    expect(forced.headers.get('retry-after')).toBe('5')
  })

  it('passes other paths on to the rest of the app', async () => {
    expect(await (await fetch(`${origin}/health`)).json()).toEqual({ ok: true })
  })
})
