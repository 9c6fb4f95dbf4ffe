import { HttpResponse, http } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createSandbox } from '../../src/index.js'
import { setupSandbox } from '../../src/runtimes/node.js'
import { createSandboxServer } from '../../src/server/index.js'

// Issue 15, point 1: "your own handlers under /v1 never run". A handler of
// yours for a path the contract does not define answers in every runtime; the
// contract's paths stay the sandbox's; what nobody takes is the sandbox's 404.
const API = 'https://api.example.test/v1'
const FREE = { authorization: 'Bearer sandbox-free' }

const categories = http.get('*/v1/categories', () => HttpResponse.json([{ id: 1, name: 'Cats' }]))
const echo = http.post('*/v1/uploads', async ({ request }) =>
  HttpResponse.json({ got: await request.text() }, { status: 201 }),
)
const broken = http.get('*/v1/broken', () => HttpResponse.error())
// A handler for a contract path in the `handlers` option never runs: the contract's routes are the sandbox's.
const shadowed = http.get('*/v1/pets', () => HttpResponse.json('not the sandbox'))
// Issue 21: outside the base path too, and plain functions next to MSW handlers.
const health = http.get('*/health', () => HttpResponse.json({ ok: true }))
const version = (request: Request): Response | undefined =>
  new URL(request.url).pathname === '/version' ? Response.json({ version: '1.2.3' }) : undefined
const OWN = [categories, echo, broken, shadowed, version, health]

const codeOf = async (response: Response): Promise<unknown> =>
  ((await response.json()) as { code?: unknown }).code

/** The same expectations for every way of running the sandbox. */
const expectOwnHandlers = (base: () => string, { plain = true } = {}) => {
  const origin = () => new URL(base()).origin

  it('answers a path outside the base path with your handler (the order rule holds there too)', async () => {
    const response = await fetch(`${origin()}/health`)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ ok: true })
  })

  if (plain)
    it('answers with a plain function (request) => Response, and passes on when it returns undefined', async () => {
      expect(await (await fetch(`${origin()}/version`)).json()).toEqual({ version: '1.2.3' })
      // The function passed /health on: the MSW handler after it answered.
      expect((await fetch(`${origin()}/health`)).status).toBe(200)
    })

  it('answers a path under /v1 the contract does not define with your handler', async () => {
    const response = await fetch(`${base()}/categories`, { headers: FREE })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual([{ id: 1, name: 'Cats' }])
  })

  it('gives your handler the request body', async () => {
    const response = await fetch(`${base()}/uploads`, {
      method: 'POST',
      headers: FREE,
      body: 'hello',
    })
    expect(response.status).toBe(201)
    expect(await response.json()).toEqual({ got: 'hello' })
  })

  it('fails the connection when your handler returns HttpResponse.error()', async () => {
    await expect(fetch(`${base()}/broken`, { headers: FREE })).rejects.toThrow(TypeError)
  })

  it('keeps the contract routes the sandbox’s', async () => {
    const response = await fetch(`${base()}/pets?limit=2`, { headers: FREE })
    expect(response.status).toBe(200)
    expect(response.headers.get('x-ratelimit-limit')).toBe('60')
    expect(((await response.json()) as unknown[]).length).toBe(2)
  })

  it('answers 404 route_not_found for what nobody handles, after the 401 for a missing key', async () => {
    const unknown = await fetch(`${base()}/owners`, { headers: FREE })
    expect(unknown.status).toBe(404)
    expect(await codeOf(unknown)).toBe('route_not_found')
    expect(await codeOf(await fetch(`${base()}/owners`))).toBe('missing_api_key')
    expect(await codeOf(await fetch(base(), { headers: FREE }))).toBe('route_not_found')
  })
}

describe('setupSandbox({ handlers })', () => {
  const sandbox = setupSandbox({ handlers: OWN })
  beforeAll(() => sandbox.listen())
  afterAll(() => sandbox.close())
  expectOwnHandlers(() => API)

  it('lets server.use() override any path, a contract route included', async () => {
    sandbox.server.use(http.get('*/v1/pets', () => HttpResponse.json(['overridden'])))
    expect(await (await fetch(`${API}/pets`, { headers: FREE })).json()).toEqual(['overridden'])
    await sandbox.reset()
    expect((await fetch(`${API}/pets`, { headers: FREE })).headers.get('x-total-count')).toBe('25')
  })

  it('journals your handlers’ answers under their operation ids, and what nobody answered (decision 0042)', async () => {
    await sandbox.reset()
    await fetch(`${API}/categories`, { headers: FREE })
    await fetch(`${API}/owners`, { headers: FREE })
    expect(
      sandbox.journal.list().map((entry) => [entry.url, entry.status, entry.operation]),
    ).toEqual([
      [`${API}/categories`, 200, 'GET /categories'],
      [`${API}/owners`, 404, null],
    ])
  })
})

describe('your handlers before the sandbox’s in your own setupServer', () => {
  const sandbox = createSandbox()
  const server = setupServer(categories, echo, broken, health, ...sandbox.handlers)
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
  afterAll(() => server.close())
  expectOwnHandlers(() => API, { plain: false })
})

describe('createSandboxServer({ handlers }) over HTTP', () => {
  const app = createSandboxServer({ handlers: OWN })
  let origin = ''
  beforeAll(async () => {
    origin = (await app.listen(0, '127.0.0.1')).url
  })
  afterAll(() => app.close())
  expectOwnHandlers(() => `${origin}/v1`)

  it('never hands your handlers a body over the cap: the sandbox answers as the contract orders', async () => {
    const send = (path: string) =>
      fetch(`${origin}/v1${path}`, { method: 'POST', headers: FREE, body: 'x'.repeat(70_000) })
    expect((await send('/pets')).status).toBe(413)
    // Your handler's route is the sandbox's now (decision 0042): 413 there too, never your handler.
    expect(await codeOf(await send('/uploads'))).toBe('payload_too_large')
    // A plain function among your handlers may answer any path below /v1: it is routed
    // there, so the cap comes first (without one, an unknown path is 404 before 413).
    expect(await codeOf(await send('/owners'))).toBe('payload_too_large')
  })
})

describe('a handlers option that is not a list of handlers', () => {
  it('fails fast naming the bad entry, in every runtime', () => {
    const bad = [categories, 'health'] as unknown as typeof OWN
    const message = /handlers\[1\] is not one of MSW handlers or functions/
    expect(() => createSandbox({ handlers: bad })).toThrow(message)
    expect(() => createSandboxServer({ handlers: bad })).toThrow(message)
    expect(() => createSandbox({ handlers: categories as unknown as typeof OWN })).toThrow(
      /handlers must be a list of MSW handlers or functions/,
    )
  })

  it('answers 500 internal_error when a plain function returns something that is not a Response', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const app = createSandboxServer({
      handlers: [(() => ({ ok: true })) as unknown as (typeof OWN)[number]],
    })
    const { url } = await app.listen(0, '127.0.0.1')
    try {
      const response = await fetch(`${url}/health`)
      expect(response.status).toBe(500)
      expect(await codeOf(response)).toBe('internal_error')
      expect(String(logged.mock.calls[0]?.[1])).toMatch(/handlers\[0\]: it returned object/)
    } finally {
      logged.mockRestore()
      await app.close()
    }
  })
})
