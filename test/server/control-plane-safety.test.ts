import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpTarget } from '../conformance/targets/http-target.js'
import { sendHttp } from './support/send-raw.js'

// Contract §14: no web page on another origin, and no rebinding host name, reaches /__sandbox.
const target = createHttpTarget({ allowedHosts: ['sandbox.internal.test'] })
beforeAll(() => target.start())
afterAll(() => target.stop())

const port = () => new URL(target.origin).port
const control = (path: string, headers: Record<string, string>, method = 'GET', body?: string) =>
  sendHttp(target.origin, { method, path: `/__sandbox${path}`, headers, body })

describe('the control plane against DNS rebinding', () => {
  it.each([
    ['a rebinding host name', 'attacker.example'],
    ['a name ending like localhost', 'evil-localhost'],
    ['a public address', '203.0.113.9'],
    // Issue 24: the whole host is read, not only its bracketed part.
    ['a name after a bracketed loopback address', '[::1].evil.example'],
    ['a name glued to a bracketed loopback address', '[::1]evil.example'],
    ['a bracketed loopback address with two ports', '[::1]:80'],
    ['an unclosed bracket', '[::1'],
    ['a loopback name with a user part', 'user@localhost'],
  ])('answers 403 forbidden to %s in Host', async (_name, host) => {
    const answer = await control('/keys', { host: `${host}:${port()}` })
    expect(answer.status).toBe(403)
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'forbidden', status: 403 })
    expect(answer.body).not.toContain('sandbox-free')
  })

  it.each([
    '127.0.0.1',
    '127.8.9.10',
    'localhost',
    'LOCALHOST.',
    'app.localhost',
    '[::1]',
    'sandbox.internal.test',
  ])('answers a Host of %s (loopback or --allowed-host)', async (host) => {
    const answer = await control('/keys', { host: `${host}:${port()}` })
    expect(answer.status).toBe(200)
  })

  it('refuses a rebinding Host before doing anything: the reset is not run', async () => {
    await target.control('PUT', '/scenario', { name: 'empty' })
    const answer = await control('/reset', { host: 'attacker.example' }, 'POST')
    expect(answer.status).toBe(403)
    expect(await target.control('GET', '/scenario')).toMatchObject({ name: 'empty' })
    await target.controls.reset()
  })
})

describe('the control plane against cross-site requests', () => {
  it('sends no Access-Control-Allow-* header, on a preflight or an answer', async () => {
    const preflight = await control(
      '/reset',
      {
        origin: 'https://attacker.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
      'OPTIONS',
    )
    const plain = await control('/keys', {})
    for (const answer of [preflight, plain]) {
      const names = Object.keys(answer.headers).filter((h) => h.startsWith('access-control-'))
      expect(names).toEqual([])
    }
    expect(preflight.status).toBe(403)
  })

  it.each([
    ['another origin', 'https://attacker.example'],
    ['the same host on another port', 'http://127.0.0.1:1'],
    ['an opaque origin', 'null'],
  ])('answers 403 forbidden to a request from %s and changes nothing', async (_name, origin) => {
    await target.control('PUT', '/scenario', { name: 'empty' })
    const reset = await control('/reset', { origin }, 'POST')
    expect(reset.status).toBe(403)
    expect(JSON.parse(reset.body)).toMatchObject({ code: 'forbidden', status: 403 })
    const read = await control('/requests', { origin })
    expect(read.status).toBe(403)
    expect(await target.control('GET', '/scenario')).toMatchObject({ name: 'empty' })
    await target.controls.reset()
  })

  it("answers a request whose Origin is the server's own", async () => {
    const answer = await control(
      '/scenario',
      { origin: target.origin, 'content-type': 'application/json' },
      'PUT',
      '{"name":"slow"}',
    )
    expect(answer.status).toBe(200)
    await target.controls.reset()
  })

  it('keeps CORS on the API itself', async () => {
    const answer = await sendHttp(target.origin, {
      path: '/v1/pets',
      headers: { origin: 'https://app.example', authorization: 'Bearer sandbox-free' },
    })
    expect(answer.headers['access-control-allow-origin']).toBe('*')
  })
})

describe('the dashboard page headers', () => {
  it('has a CSP without unsafe-inline, and the page inlines no script or style', async () => {
    const page = await control('/', {})
    expect(page.status).toBe(200)
    const csp = String(page.headers['content-security-policy'])
    expect(csp).not.toContain('unsafe-inline')
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).toMatch(/script-src 'self'/)
    expect(page.body).not.toMatch(/<script>\s*\S/)
    expect(page.body).not.toMatch(/<style>/)
  })

  it("refuses a rebinding Host on the dashboard's data routes too", async () => {
    for (const path of ['/events', '/quotas', '/pets']) {
      const answer = await control(path, { host: 'attacker.example' })
      expect(answer.status, path).toBe(403)
      expect(answer.headers['x-content-type-options']).toBe('nosniff')
    }
    const cross = await control('/quotas', { origin: 'https://attacker.example' })
    expect(cross.status).toBe(403)
  })

  it.each([
    ['the page', '/'],
    ['a JSON answer', '/keys'],
    ['an error', '/nope'],
    ['the OpenAPI document', '/openapi.json'],
  ])('sends nosniff and forbids framing on %s', async (_name, path) => {
    const answer = await control(path, {})
    expect(answer.headers['x-content-type-options']).toBe('nosniff')
    expect(answer.headers['x-frame-options']).toBe('DENY')
    expect(String(answer.headers['content-security-policy'])).toContain("frame-ancestors 'none'")
  })
})
