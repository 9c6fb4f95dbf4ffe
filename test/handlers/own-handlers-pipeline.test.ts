import { HttpResponse, http } from 'msw'
import { describe, expect, it } from 'vitest'
import {
  createSandbox,
  type OwnHandler,
  ownHandler,
  passthroughHandler,
  publicHandler,
} from '../../src/index.js'
import { createSandboxServer } from '../../src/server/index.js'

// Decision 0042: what the conformance part does not cover, through the core's `handle`.
const API = 'https://api.example.test/v1'
const get = (path: string, key?: string) => ({
  method: 'GET',
  url: `${API}${path}`,
  headers: key === undefined ? {} : { authorization: `Bearer ${key}` },
  body: null,
})

const categories = http.get('*/v1/categories', () => HttpResponse.json([{ id: 1 }]))
const echoTime = (request: Request): Response | undefined =>
  new URL(request.url).pathname === '/v1/time' ? Response.json({ now: 1 }) : undefined

describe('your handlers inside the pipeline', () => {
  it('runs a plain function inside the pipeline: 401 without a key, journaled as METHOD /path', async () => {
    const sandbox = createSandbox({ handlers: [echoTime] })
    expect((await sandbox.handle(get('/time')))?.status).toBe(401)
    const ok = await sandbox.handle(get('/time', 'sandbox-free'))
    expect([ok?.status, ok?.body, ok?.headers['X-RateLimit-Remaining']]).toEqual([
      200,
      '{"now":1}',
      '59',
    ])
    // What the function passes on is the sandbox's 404, journaled as no operation.
    expect((await sandbox.handle(get('/owners', 'sandbox-free')))?.status).toBe(404)
    expect(sandbox.journal.list().map((e) => [e.operation, e.status])).toEqual([
      [null, 401],
      ['GET /time', 200],
      [null, 404],
    ])
  })

  it('journals a plain function under the name given, and a public one with a route without a key', async () => {
    const sandbox = createSandbox({
      handlers: [
        ownHandler(echoTime, { name: 'serverTime' }),
        publicHandler((request) => Response.json({ url: request.url }), {
          route: 'GET /v1/status/{part}',
          name: 'status',
        }),
      ],
    })
    expect((await sandbox.handle(get('/time', 'sandbox-free')))?.status).toBe(200)
    const status = await sandbox.handle(get('/status/db'))
    expect([status?.status, status?.headers['X-RateLimit-Limit']]).toEqual([200, undefined])
    expect(sandbox.journal.list().map((e) => e.operation)).toEqual(['serverTime', 'status'])
  })

  it('lists your routed handlers in the coverage before their first call, and in the HAR', async () => {
    const sandbox = createSandbox({ handlers: [categories] })
    const before = await sandbox.coverage()
    expect(before.operations.map((o) => o.operation)).toEqual([
      'listPets',
      'createPet',
      'getPet',
      'GET /categories',
    ])
    await sandbox.handle(get('/categories', 'sandbox-free'))
    const after = await sandbox.coverage()
    const mine = after.operations.find((o) => o.operation === 'GET /categories')
    expect(mine?.requests).toBe(1)
    expect(mine?.unmet).toEqual([
      '401',
      '429',
      '500',
      '503',
      'Retry-After',
      'network-error',
      'timeout',
    ])
    const har = sandbox.journal.toHAR()
    expect(har.log.entries[0]?._sandbox.operation).toBe('GET /categories')
  })

  it('applies a scenario’s delay and forced answer to your handler, and a session of its own', async () => {
    let calls = 0
    const counted = http.get('*/v1/counted', () => {
      calls += 1
      return HttpResponse.json({ calls })
    })
    const sandbox = createSandbox({ handlers: [counted] })
    const slow = await sandbox.handle(get('/counted?__scenario=slow&__delay=250', 'sandbox-free'))
    expect([slow?.status, slow?.delayMs]).toEqual([200, 250])
    const forced = await sandbox.handle(get('/counted?__scenario=server-error', 'sandbox-free'))
    expect(forced?.status).toBe(500)
    // The forced answer replaced your handler's: it ran once, for the slow answer.
    expect(calls).toBe(1)
    await sandbox.handle({
      ...get('/counted', 'sandbox-free'),
      headers: { authorization: 'Bearer sandbox-free', 'x-sandbox-session': 'w1' },
    })
    expect(
      sandbox
        .session('w1')
        .journal.list()
        .map((e) => e.operation),
    ).toEqual(['GET /counted'])
  })

  it('keeps a passthrough handler before the sandbox checks anything, and out of the journal', async () => {
    const sandbox = createSandbox({
      handlers: [passthroughHandler(http.get('*/v1/legacy', () => HttpResponse.text('old')))],
      scenario: 'unavailable',
    })
    // The core alone passes it on (null): the runtime offers it to the passthrough handler.
    expect(await sandbox.handle(get('/legacy'), { passUnknownRoutes: true })).toBeNull()
    expect(sandbox.journal.list()).toEqual([])
  })

  it.each([
    [
      () => [publicHandler(echoTime)],
      /handlers\[0\] is public, but the sandbox cannot read which requests it answers/,
    ],
    [
      () => [ownHandler(echoTime, { route: 'GET /health' })],
      /handlers\[0\] has route "GET \/health"; give "METHOD \/v1\/path"/,
    ],
    [() => [ownHandler(echoTime, { route: 'FETCH /v1/x' })], /has route "FETCH \/v1\/x"/],
    [() => [ownHandler(categories, { name: '' })], /name must be 1-200 characters/],
    [
      () => [ownHandler(categories, { access: 'open' as 'public' })],
      /access "open" is not one of key, public, passthrough/,
    ],
    [
      () => [ownHandler(categories, { name: 'getPet' })],
      /repeats the id of one of the contract's operations/,
    ],
  ] as [() => OwnHandler[], RegExp][])(
    'refuses a handler it cannot place: %#',
    (handlers, message) => {
      expect(() => createSandbox({ handlers: handlers() })).toThrow(message)
    },
  )

  it('refuses the same in the server', () => {
    expect(() => createSandboxServer({ handlers: [publicHandler(echoTime)] })).toThrow(
      /Failed to create the server: handlers\[0\] is public/,
    )
  })

  it('groups handlers of one route in order, MSW’s once included, and a Unicode name', async () => {
    const sandbox = createSandbox({
      handlers: [
        ownHandler(
          http.get('*/v1/kinds', () => HttpResponse.json('first'), { once: true }),
          {
            name: 'Arten 🐾',
          },
        ),
        http.get('*/v1/kinds', () => HttpResponse.json('then')),
      ],
    })
    expect((await sandbox.handle(get('/kinds', 'sandbox-free')))?.body).toBe('"first"')
    expect((await sandbox.handle(get('/kinds', 'sandbox-free')))?.body).toBe('"then"')
    expect(sandbox.operations.at(-1)?.id).toBe('Arten 🐾')
  })
})
