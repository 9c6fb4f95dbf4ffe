import type { IncomingMessage } from 'node:http'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  createControlAccess,
  isLoopbackAddress,
} from '../../src/server/control/create-control-access.js'
import { createHttpTarget } from '../conformance/targets/http-target.js'

const target = createHttpTarget()
const guarded = createHttpTarget({ adminToken: 's3cret-token' })
beforeAll(async () => {
  await target.start()
  await guarded.start()
})
afterAll(async () => {
  await target.stop()
  await guarded.stop()
})
beforeEach(() => target.controls.reset())

const call = (
  method: string,
  path: string,
  init: { body?: string; headers?: Record<string, string> } = {},
) =>
  fetch(`${target.origin}/__sandbox${path}`, {
    method,
    body: init.body ?? null,
    headers: init.headers ?? {},
  })
const json = { 'content-type': 'application/json' }

describe('the control API', () => {
  it('reads, advances and sets the clock, answering {now, frozen}', async () => {
    expect(await target.control('GET', '/clock')).toMatchObject({ frozen: false })
    expect(await target.control('POST', '/clock', { now: '2030-12-04T23:59:59Z' })).toEqual({
      now: '2030-12-04T23:59:59.000Z',
      frozen: true,
    })
    expect(await target.control('POST', '/clock', { advanceMs: 1000 })).toEqual({
      now: '2030-12-05T00:00:00.000Z',
      frozen: true,
    })
  })

  it('switches the sticky scenario and answers 400 unknown_scenario for an unknown one', async () => {
    expect(await target.control('PUT', '/scenario', { name: 'empty' })).toMatchObject({
      name: 'empty',
    })
    const pets = await target.send({
      method: 'GET',
      path: '/pets',
      headers: { authorization: 'Bearer sandbox-free' },
    })
    expect(JSON.parse(pets.body)).toEqual([])
    const bad = await call('PUT', '/scenario', { body: '{"name":"nope"}', headers: json })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({ code: 'unknown_scenario', status: 400 })
  })

  it('creates a key that works at once, lists it, and revokes it (204, then 404 key_not_found)', async () => {
    const created = (await target.control('POST', '/keys', {
      plan: 'enterprise',
      perMinute: 7,
    })) as { key: string; plan: string; limits: { perMinute: number } }
    expect(created).toMatchObject({ plan: 'enterprise', limits: { perMinute: 7 } })
    const used = await target.send({
      method: 'GET',
      path: '/pets',
      headers: { authorization: `Bearer ${created.key}` },
    })
    expect(used.headers['x-ratelimit-limit']).toBe('7')
    const list = (await target.control('GET', '/keys')) as { key: string }[]
    // Listed masked (issue 10): POST returned the key in full once.
    expect(list.map((k) => k.key)).toContain(`${created.key.slice(0, 15)}…`)
    expect((await call('DELETE', `/keys/${created.key}`)).status).toBe(204)
    const again = await call('DELETE', `/keys/${created.key}`)
    expect(again.status).toBe(404)
    expect(await again.json()).toMatchObject({ code: 'key_not_found' })
  })

  it('answers 400 unknown_plan for an unknown plan', async () => {
    const response = await call('POST', '/keys', { body: '{"plan":"gold"}', headers: json })
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ code: 'unknown_plan', status: 400 })
  })

  it.each([
    ['malformed_json', '/clock', '{"advanceMs":', json],
    ['invalid_content_type', '/clock', '{"advanceMs":1}', { 'content-type': 'text/plain' }],
    ['validation_failed', '/clock', '{"advanceMs":1,"now":"2030-01-01T00:00:00Z"}', json],
    ['validation_failed', '/clock', '{"now":"yesterday"}', json],
    ['validation_failed', '/keys', '{"plan":"pro","perMinute":0}', json],
  ])('answers 400 %s to a bad body on %s', async (code, path, body, headers) => {
    const response = await call('POST', path, { body, headers })
    expect(response.status).toBe(400)
    expect(response.headers.get('content-type')).toContain('application/json')
    expect(await response.json()).toMatchObject({ code, status: 400 })
  })

  it('answers 404 route_not_found and 405 with Allow', async () => {
    const missing = await call('GET', '/nothing')
    expect(missing.status).toBe(404)
    expect(await missing.json()).toMatchObject({ code: 'route_not_found' })
    const wrong = await call('DELETE', '/clock')
    expect(wrong.status).toBe(405)
    expect(wrong.headers.get('allow')).toBe('GET, POST')
  })

  it('keeps the journal with Authorization redacted, and clears it', async () => {
    await target.send({
      method: 'GET',
      path: '/pets',
      headers: { authorization: 'Bearer sandbox-business' },
    })
    const entries = (await target.control('GET', '/requests')) as {
      headers: Record<string, string>
      plan: string
    }[]
    expect(entries).toHaveLength(1)
    expect(entries[0]?.plan).toBe('business')
    expect(JSON.stringify(entries)).not.toContain('sandbox-business')
    expect((await call('DELETE', '/requests')).status).toBe(204)
    expect(await target.control('GET', '/requests')).toEqual([])
  })

  it('resets pets, scenario, clock, keys and journal', async () => {
    const created = await target.send({
      method: 'POST',
      path: '/pets',
      headers: { authorization: 'Bearer sandbox-free', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Gone after reset', categoryId: 1 }),
    })
    expect(created.status).toBe(201)
    await target.control('PUT', '/scenario', { name: 'empty' })
    await target.control('POST', '/clock', { advanceMs: 5_000 })
    const { key } = (await target.control('POST', '/keys', { plan: 'pro' })) as { key: string }
    expect(await target.control('GET', '/requests')).not.toEqual([])
    expect((await call('POST', '/reset')).status).toBe(204)
    expect(await target.control('GET', '/requests')).toEqual([])
    expect(await target.control('GET', '/scenario')).toMatchObject({ name: 'default' })
    expect(await target.control('GET', '/clock')).toMatchObject({ frozen: false })
    const listed = await target.send({
      method: 'GET',
      path: '/pets?limit=100',
      headers: { authorization: 'Bearer sandbox-free' },
    })
    expect(listed.headers['x-total-count']).toBe('25')
    expect(listed.body).not.toContain('Gone after reset')
    const revoked = await target.send({
      method: 'GET',
      path: '/pets',
      headers: { authorization: `Bearer ${key}` },
    })
    expect(revoked.status).toBe(401)
  })

  it('serves the dashboard as a static shell without data, under a strict CSP', async () => {
    await target.send({
      method: 'POST',
      path: '/pets',
      headers: { authorization: 'Bearer sandbox-free', 'content-type': 'application/json' },
      body: JSON.stringify({ name: '<img src=x onerror=alert(1)>', categoryId: 1 }),
    })
    const page = await call('GET', '/')
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toContain('text/html')
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
    const html = await page.text()
    expect(html).not.toContain('<img src=x')
    expect(html).not.toContain('sandbox-free')
    expect(html).not.toMatch(/<script>|<style>|style=/)
  })

  it('serves the OpenAPI document as JSON', async () => {
    const response = await call('GET', '/openapi.json')
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ openapi: expect.stringMatching(/^3\./) })
  })

  it('needs no API key and is not rate limited', async () => {
    for (let i = 0; i < 70; i++) expect((await call('GET', '/clock')).status).toBe(200)
  })

  it('answers 403 forbidden without the admin token, and serves with it', async () => {
    const denied = await fetch(`${guarded.origin}/__sandbox/clock`)
    expect(denied.status).toBe(403)
    expect(await denied.json()).toMatchObject({ code: 'forbidden', status: 403 })
    const wrong = await fetch(`${guarded.origin}/__sandbox/clock`, {
      headers: { authorization: 'Bearer nope' },
    })
    expect(wrong.status).toBe(403)
    const allowed = await fetch(`${guarded.origin}/__sandbox/clock`, {
      headers: { authorization: 'Bearer s3cret-token' },
    })
    expect(allowed.status).toBe(200)
  })

  it('answers only loopback callers when no admin token is set', () => {
    expect(isLoopbackAddress('127.0.0.1')).toBe(true)
    expect(isLoopbackAddress('::ffff:127.0.0.9')).toBe(true)
    expect(isLoopbackAddress('::1')).toBe(true)
    expect(isLoopbackAddress('10.0.0.2')).toBe(false)
    expect(isLoopbackAddress('::ffff:192.168.1.4')).toBe(false)
    const remote = {
      socket: { remoteAddress: '192.168.1.4' },
      headers: {},
    } as unknown as IncomingMessage
    expect(createControlAccess({ adminToken: undefined }).check(remote)?.code).toBe('forbidden')
    const withToken = {
      socket: { remoteAddress: '192.168.1.4' },
      headers: { authorization: 'Bearer t0k' },
      rawHeaders: ['Authorization', 'Bearer t0k'],
    } as unknown as IncomingMessage
    expect(createControlAccess({ adminToken: 't0k' }).check(withToken)).toBeUndefined()
    // node:http keeps the first of two Authorization lines: both are read, and two tokens are none.
    const twice = {
      socket: { remoteAddress: '192.168.1.4' },
      headers: { authorization: 'Bearer t0k' },
      rawHeaders: ['Authorization', 'Bearer t0k', 'authorization', 'Bearer other'],
    } as unknown as IncomingMessage
    expect(createControlAccess({ adminToken: 't0k' }).check(twice)?.code).toBe('forbidden')
  })
})

describe('CORS', () => {
  it('answers a preflight without a key or quota, allowing the headers a client sends', async () => {
    const response = await fetch(`${target.origin}/v1/pets`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, x-sandbox-scenario',
      },
    })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    const allowed = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase()
    for (const h of ['authorization', 'content-type', 'x-sandbox-scenario'])
      expect(allowed).toContain(h)
    expect(response.headers.get('x-ratelimit-limit')).toBeNull()
    expect(await target.control('GET', '/requests')).toEqual([])
  })

  it('exposes the rate-limit, paging, deprecation and Location headers on API answers', async () => {
    const response = await fetch(`${target.origin}/v1/pets`, {
      headers: { origin: 'http://localhost:5173', authorization: 'Bearer sandbox-free' },
    })
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    const exposed = (response.headers.get('access-control-expose-headers') ?? '')
      .toLowerCase()
      .split(',')
    for (const h of [
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
      'retry-after',
      'link',
      'x-total-count',
      'deprecation',
      'sunset',
      'location',
    ])
      expect(exposed).toContain(h)
  })
})
