import { describe, expect, it } from 'vitest'
import { createSandbox, createSandboxCore } from '../../src/index.js'

const URL_BASE = 'https://api.example.test/v1'

describe('handle() input', () => {
  it('takes header names in any case and any method case', async () => {
    const sandbox = createSandboxCore()
    const response = await sandbox.handle({
      method: 'get',
      url: `${URL_BASE}/pets?limit=1`,
      headers: { AUTHORIZATION: 'Bearer sandbox-free' },
    })
    expect(response?.status).toBe(200)
    expect(sandbox.journal.list()[0]?.method).toBe('GET')
  })

  it('joins names that differ only in case, in the order given, and keeps odd names as headers', async () => {
    const sandbox = createSandboxCore()
    // An own `__proto__` (as JSON.parse makes it), `constructor`, and one name in three cases.
    const headers = JSON.parse(
      '{"x-trace":"a","X-Trace":"b","authorization":"Bearer sandbox-free","__proto__":"p","Constructor":"c","X-TRACE":"d","x-gone":null}',
    ) as Record<string, string | undefined>
    headers['x-gone'] = undefined
    const response = await sandbox.handle({ method: 'GET', url: `${URL_BASE}/pets`, headers })
    expect(response?.status).toBe(200)
    const seen = sandbox.journal.list()[0]?.request.headers ?? {}
    expect(Object.keys(seen)).toEqual(['x-trace', 'authorization', '__proto__', 'constructor'])
    expect(Object.getPrototypeOf(seen)).toBe(Object.prototype)
    expect(seen['x-trace']).toBe('a, b, d')
    expect(seen.constructor).toBe('c')
    // Without `__proto__`: the same joins on the direct way.
    const direct = await sandbox.handle({
      method: 'GET',
      url: `${URL_BASE}/pets`,
      headers: {
        'X-Trace': 'a',
        authorization: 'Bearer sandbox-free',
        'x-trace': 'b',
        toString: 't',
      },
    })
    expect(direct?.status).toBe(200)
    const second = sandbox.journal.list()[1]?.request.headers ?? {}
    expect(second).toEqual({
      'x-trace': 'a, b',
      authorization: 'Bearer sand…(redacted)',
      tostring: 't',
    })
  })

  it('takes a Headers object', async () => {
    const sandbox = createSandboxCore()
    const response = await sandbox.handle({
      method: 'GET',
      url: `${URL_BASE}/pets`,
      headers: new Headers({ Authorization: 'Bearer sandbox-free' }),
    })
    expect(response?.status).toBe(200)
  })

  it.each([
    ['a string', '{"name":"Rex","categoryId":1}'],
    ['an object, sent as JSON', { name: 'Rex', categoryId: 1 }],
    ['bytes', new TextEncoder().encode('{"name":"Rex","categoryId":1}')],
    ['an ArrayBuffer', new TextEncoder().encode('{"name":"Rex","categoryId":1}').buffer],
  ])('takes a body as %s', async (_what, body) => {
    const sandbox = createSandboxCore()
    const response = await sandbox.handle({
      method: 'POST',
      url: `${URL_BASE}/pets`,
      headers: { Authorization: 'Bearer sandbox-free', 'Content-Type': 'application/json' },
      body,
    })
    expect(response?.status).toBe(201)
    expect(JSON.parse(response?.body ?? '')).toMatchObject({ id: 26, name: 'Rex' })
  })

  it('says clearly that a relative URL needs an origin', async () => {
    const sandbox = createSandboxCore()
    await expect(sandbox.handle({ method: 'GET', url: '/v1/pets' })).rejects.toThrow(
      /Failed to handle the request: url "\/v1\/pets" is not an absolute URL\. .*"http:\/\/localhost\/v1\/pets"/,
    )
  })

  it('refuses a request without a method', async () => {
    const sandbox = createSandboxCore()
    await expect(
      sandbox.handle({ method: '', url: `${URL_BASE}/pets` } as { method: string; url: string }),
    ).rejects.toThrow(/method must be a non-empty string/)
  })
})

describe('createSandbox options', () => {
  it('refuses an unknown option, naming it and the known ones', () => {
    expect(() => createSandbox({ seeds: 1 } as never)).toThrow(
      /^Failed to create the sandbox: unknown option "seeds"\. Known options: baseUrl, seed,/,
    )
    expect(() => createSandboxCore({ petz: 3, scenarioo: 'x' } as never)).toThrow(
      /unknown options "petz", "scenarioo"/,
    )
  })

  it('refuses options that are not an object', () => {
    expect(() => createSandboxCore(null as never)).toThrow(/options must be an object, got null/)
  })

  it.each([
    [{ maxSessions: 0 }, /maxSessions must be at least 1/],
    [{ maxSessions: 1.5 }, /maxSessions must be a whole number/],
    [{ sessionTtlMs: 999 }, /sessionTtlMs must be a whole number of milliseconds >= 1000/],
  ])('refuses %j', (options, message) => {
    expect(() => createSandboxCore(options)).toThrow(message)
  })
})

describe('the journal of a dropped connection', () => {
  it.each([
    ['network-error', 'network-error'],
    ['timeout', 'timeout'],
  ])('records %s as no response, with its fault', async (scenario, fault) => {
    const sandbox = createSandboxCore()
    const response = await sandbox.handle({
      method: 'GET',
      url: `${URL_BASE}/pets?__scenario=${scenario}&__delay=0`,
      headers: { authorization: 'Bearer sandbox-free' },
    })
    expect(response?.fault).toBe(fault)
    const [entry] = sandbox.journal.list()
    expect(entry).toMatchObject({ status: null, fault, response: null, scenario })
  })

  it('records an answered request with its response headers and body', async () => {
    const sandbox = createSandboxCore()
    await sandbox.handle({
      method: 'GET',
      url: `${URL_BASE}/pets/1?api_key=leak`,
      headers: { authorization: 'Bearer sandbox-free', cookie: 'sid=secret', 'x-api-key': 'k' },
    })
    const [entry] = sandbox.journal.list()
    expect(entry?.status).toBe(200)
    expect(entry?.url).toBe(`${URL_BASE}/pets/1?api_key=(redacted)`)
    expect(entry?.request.headers).toMatchObject({
      cookie: '(redacted)',
      'x-api-key': '(redacted)',
    })
    expect(entry?.response?.headers.deprecation).toMatch(/^@\d+$/)
    expect(JSON.parse(entry?.response?.body ?? '')).toMatchObject({ id: 1 })
    expect(JSON.stringify(entry)).not.toMatch(/secret|leak|sandbox-free/)
  })
})
