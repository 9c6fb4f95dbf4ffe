import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { createSandboxServer } from '../../src/server/index.js'

// Issue 23 over HTTP: the journal's filters, POST /__sandbox/requests/expect,
// GET /__sandbox/report and /__sandbox/coverage, and `aborted` on a real socket.
const app = createSandboxServer()
let origin = ''
beforeAll(async () => {
  origin = (await app.listen(0, '127.0.0.1')).url
})
afterAll(() => app.close())
beforeEach(() => app.sandbox.reset())

const KEY = { authorization: 'Bearer sandbox-free' }
const api = (path: string, init: RequestInit = {}) =>
  fetch(`${origin}/v1${path}`, { ...init, headers: { ...KEY, ...init.headers } })
const control = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${origin}/__sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}
const seqsOf = (body: unknown): number[] => (body as { seq: number }[]).map((e) => e.seq)

const traffic = async () => {
  await api('/pets?limit=2')
  await api('/pets', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"name":"Rex","categoryId":2}',
  })
  await api('/pets/1', { headers: { authorization: 'Bearer nope' } })
  return app.sandbox.journal.list().map((e) => e.seq)
}

describe('GET /__sandbox/requests with filters', () => {
  it('filters the journal by the same match as requests.find', async () => {
    const [list, create, get] = await traffic()
    expect(seqsOf((await control('GET', '/requests')).body)).toEqual([list, create, get])
    const filtered = async (query: string) =>
      seqsOf((await control('GET', `/requests?${query}`)).body)
    expect(await filtered('method=POST')).toEqual([create])
    expect(await filtered('method=GET&method=POST&status=200&status=201')).toEqual([list, create])
    expect(await filtered('path=/v1/pets/:petId')).toEqual([get])
    expect(await filtered(`pathRegExp=${encodeURIComponent('^/v1/pets$')}`)).toEqual([list, create])
    expect(await filtered('query.limit=2')).toEqual([list])
    expect(await filtered('header.content-type=application/json')).toEqual([create])
    expect(await filtered(`body=${encodeURIComponent('{"name":"Rex"}')}`)).toEqual([create])
    expect(await filtered('operation=getPet&status=401')).toEqual([get])
    expect(await filtered('status=none')).toEqual([])
    expect(await filtered('__session=default&method=POST')).toEqual([create])
    // A parameter or header named __proto__ is a name like any other (issue 24), not dropped.
    expect(await filtered('query.__proto__=x')).toEqual([])
    expect(await filtered('header.__proto__=x')).toEqual([])
  })

  it('answers 400 invalid_parameter for a filter that is not one, or a bad value', async () => {
    for (const [query, field] of [
      ['mehtod=GET', 'mehtod'],
      ['status=two', 'status'],
      ['body={name}', 'body'],
      ['operation=deletePet', 'operation'],
      ['path=a&path=b', 'path'],
      ['pathRegExp=(', 'pathRegExp'],
      ['path=pets', '(match)'],
      ['query.=1', 'query.'],
    ] as const) {
      const { status, body } = await control('GET', `/requests?${query}`)
      expect(status, query).toBe(400)
      expect(body, query).toMatchObject({ code: 'invalid_parameter', status: 400 })
      expect((body.details as { field: string }[])[0]?.field, query).toBe(field)
    }
  })
})

describe('POST /__sandbox/requests/expect', () => {
  it('answers 200 with the matching seqs', async () => {
    const [, create] = await traffic()
    expect(
      await control('POST', '/requests/expect', {
        method: 'POST',
        path: '/v1/pets',
        body: { name: 'Rex' },
        times: 1,
      }),
    ).toEqual({ status: 200, body: { matched: 1, seqs: [create] } })
    expect(
      (
        await fetch(`${origin}/__sandbox/requests/expect`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"query":{"__proto__":"x"}}',
        })
      ).status,
    ).toBe(409)
    expect(await control('POST', '/requests/expect', { status: 500, times: 0 })).toEqual({
      status: 200,
      body: { matched: 0, seqs: [] },
    })
  })

  it('answers 409 expectation_not_met: the diff as the message, each difference a detail', async () => {
    const [, create] = await traffic()
    const { status, body } = await control('POST', '/requests/expect', {
      method: 'POST',
      pathRegExp: '^/v1/pets$',
      body: { name: 'Max' },
    })
    expect(status).toBe(409)
    // The contract's Error body and nothing else (§7).
    expect(Object.keys(body).sort()).toEqual(['code', 'details', 'message', 'status'])
    expect(body).toMatchObject({ code: 'expectation_not_met', status: 409 })
    expect(body.details).toEqual([
      { field: 'times', message: 'expected at least 1, received 0 of 3' },
      {
        field: 'body.name',
        message: `#${create} POST /v1/pets: expected "Max", received "Rex"`,
      },
      {
        field: 'method',
        message: expect.stringMatching(
          /^#\d+ GET \/v1\/pets\?limit=2: expected "POST", received "GET"$/,
        ),
      },
      { field: 'body', message: expect.stringContaining('received (absent)') },
      { field: 'method', message: expect.stringContaining('GET /v1/pets/1') },
      { field: 'path', message: expect.stringContaining('received "/v1/pets/1"') },
      { field: 'body', message: expect.stringContaining('received (absent)') },
    ])
    expect(body.message).toContain(
      'Expected at least one request matching method POST, path /^\\/v1\\/pets$/, body {"name":"Max"}; received 0 (of 3 requests in session "default").',
    )
    expect(body.message).toContain(
      `#${create} POST /v1/pets → 201\n    body.name\n      - "Max"\n      + "Rex"`,
    )
  })

  it('answers 409 naming the requests that matched when there were too few', async () => {
    const [list, , get] = await traffic()
    const { status, body } = await control('POST', '/requests/expect', { method: 'GET', times: 3 })
    expect(status).toBe(409)
    expect((body.details as unknown[])[0]).toEqual({
      field: 'times',
      message: `expected 3, received 2 (#${list}, #${get}) of 3`,
    })
  })

  it('answers 400 for a bad match or times, naming what is wrong', async () => {
    expect(await control('POST', '/requests/expect', { mehtod: 'GET' })).toMatchObject({
      status: 400,
      body: { code: 'validation_failed' },
    })
    expect(await control('POST', '/requests/expect', { times: -1 })).toMatchObject({
      status: 400,
      body: { code: 'validation_failed', details: [{ field: 'times' }] },
    })
    expect(
      await control('POST', '/requests/expect', { path: '/v1/pets', pathRegExp: 'x' }),
    ).toMatchObject({
      status: 400,
      body: { code: 'validation_failed', details: [{ field: 'pathRegExp' }] },
    })
    expect(await control('POST', '/requests/expect', { path: 'v1' })).toMatchObject({
      status: 400,
      body: { code: 'validation_failed', details: [{ field: '(match)' }] },
    })
  })
})

describe('GET /__sandbox/report and /__sandbox/coverage', () => {
  it('report the session selected, by the rules over its journal', async () => {
    await app.sandbox.clock.set('2030-01-01T00:00:00Z')
    await api('/pets/1?api_key=sandbox-free')
    const { status, body } = await control('GET', '/report')
    expect(status).toBe(200)
    expect((body.findings as { rule: string }[]).map((f) => f.rule)).toEqual([
      'deprecated-operation',
      'key-in-query',
    ])
    expect(await control('GET', '/report?__session=elsewhere')).toEqual({
      status: 200,
      body: { session: 'elsewhere', requests: 0, findings: [] },
    })
  })

  it('coverage shows what each operation met, and what it never did', async () => {
    await traffic()
    await api('/pets?limit=1')
    const { body } = await control('GET', '/coverage')
    const [list, create, get] = body.operations as {
      operation: string
      statuses: { status: number; count: number }[]
      headers: { header: string; count: number }[]
      unmet: string[]
    }[]
    expect(list?.statuses.find((s) => s.status === 200)?.count).toBe(2)
    expect(list?.headers).toEqual([
      { header: 'Retry-After', count: 0 },
      { header: 'Link: rel="next"', count: 2 },
    ])
    expect(create?.unmet).toEqual([
      '400',
      '401',
      '409',
      '413',
      '429',
      '500',
      '503',
      '507',
      'Retry-After',
      'network-error',
      'timeout',
    ])
    expect(get?.statuses.find((s) => s.status === 401)?.count).toBe(1)
    expect(get?.headers).toEqual([
      { header: 'Retry-After', count: 0 },
      { header: 'Sunset', count: 1 },
    ])
    expect(body).toMatchObject({ session: 'default', requests: 4, unrouted: 0 })
  })
})

describe('aborted, on a real connection', () => {
  /** Sends a request and gives up on it once the sandbox has journaled it (a held answer). */
  const giveUpOn = async (path: string, init: RequestInit = {}) => {
    const controller = new AbortController()
    const stop = app.sandbox.events.on('request', () => controller.abort())
    await expect(api(path, { ...init, signal: controller.signal })).rejects.toThrow()
    stop()
  }

  it('marks a slow answer the client gave up on, and its create is done all the same', async () => {
    await giveUpOn('/pets?__scenario=slow&__delay=30000', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"Rex","categoryId":2}',
    })
    await vi.waitFor(() => expect(app.sandbox.journal.list()[0]?.aborted).toBe(true))
    expect(app.sandbox.journal.list()[0]).toMatchObject({ status: 201, aborted: true })
    expect(app.sandbox.db.pets.count).toBe(26)
  })

  it('marks a timeout the client gave up on before the sandbox failed it', async () => {
    await giveUpOn('/pets?__scenario=timeout&__delay=30000')
    await vi.waitFor(() => expect(app.sandbox.journal.list()[0]?.aborted).toBe(true))
    expect(app.sandbox.journal.list()[0]).toMatchObject({ status: null, fault: 'timeout' })
  })

  it('leaves answers the client received, and failures the sandbox made, unmarked', async () => {
    await api('/pets')
    await expect(api('/pets?__scenario=network-error')).rejects.toThrow()
    await api('/pets?__scenario=slow&__delay=20')
    expect(app.sandbox.journal.list().map((e) => e.aborted)).toEqual([false, false, false])
  })
})
