import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { afterEach, describe, expect, it } from 'vitest'
import { createSandboxCore, sandboxMiddleware } from '../../src/server/index.js'

const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))))
})

const serve = async (app: express.Express): Promise<string> => {
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s))
  })
  servers.push(server)
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

const auth = { authorization: 'Bearer sandbox-free' }

describe('sandboxMiddleware', () => {
  // Regression: the middleware checked the default /v1 and passed a sandbox created with
  // another baseUrl on to next(), so `/api/pets` reached the app's 404.
  it('answers below the base path the sandbox was created with', async () => {
    const app = express()
    app.use(sandboxMiddleware(createSandboxCore({ baseUrl: '/api', pets: 3 })))
    app.use((_req, res) => {
      res.status(404).json({ from: 'app' })
    })
    const origin = await serve(app)
    const listed = await fetch(`${origin}/api/pets`, { headers: auth })
    expect(listed.status).toBe(200)
    expect(((await listed.json()) as unknown[]).length).toBe(3)
    expect(await (await fetch(`${origin}/v1/pets`, { headers: auth })).json()).toEqual({
      from: 'app',
    })
  })

  it('passes requests outside the base path (and look-alikes such as /apis) to the app', async () => {
    const app = express()
    app.use(sandboxMiddleware(createSandboxCore({ baseUrl: '/api' })))
    app.get('/apis', (_req, res) => {
      res.json({ from: 'app' })
    })
    const origin = await serve(app)
    expect(await (await fetch(`${origin}/apis`)).json()).toEqual({ from: 'app' })
  })
})
