import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from './create-app.js'

const { app, sandbox } = createApp()
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

describe('the sandbox mounted in an express app', () => {
  it('answers the API under /v1 with the contract, rate-limit headers included', async () => {
    const response = await fetch(`${origin}/v1/pets`, { headers: auth })
    expect(response.status).toBe(200)
    expect(response.headers.get('x-ratelimit-limit')).toBe('60')
    expect(((await response.json()) as unknown[]).length).toBe(5)
  })

  it('creates a pet from a raw JSON body and rejects malformed JSON', async () => {
    const created = await fetch(`${origin}/v1/pets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"name":"Express","categoryId":3}',
    })
    expect(created.status).toBe(201)
    const broken = await fetch(`${origin}/v1/pets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"name":',
    })
    expect(await broken.json()).toMatchObject({ code: 'malformed_json', status: 400 })
  })

  it("leaves the app's own routes to the app", async () => {
    const response = await fetch(`${origin}/health`)
    expect(await response.json()).toEqual({ ok: true, pets: sandbox.db.pets.count })
  })
})
