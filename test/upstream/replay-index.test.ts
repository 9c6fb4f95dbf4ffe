import { describe, expect, it } from 'vitest'
import { keyRef } from '../../src/journal/key-ref.js'
import { createReplayIndex, replayKey } from '../../src/upstream/replay-index.js'

const decoder = new TextDecoder()
const encoder = new TextEncoder()

interface EntryInput {
  method?: string
  url: string
  status?: number
  text?: string
  encoding?: 'base64'
  headers?: { name: string; value: string }[]
  postData?: string
  error?: string
  /** The request's headers as the archive holds them. */
  requestHeaders?: { name: string; value: string }[]
  /** The sandbox's own view (`_sandbox.keyRef`), as its recordings and exports carry it. */
  keyRef?: string | null
}

const entry = (input: EntryInput) => ({
  request: {
    method: input.method ?? 'GET',
    url: input.url,
    headers: input.requestHeaders ?? [],
    ...(input.postData === undefined ? {} : { postData: { text: input.postData } }),
  },
  response: {
    status: input.status ?? 200,
    headers: input.headers ?? [{ name: 'Content-Type', value: 'application/json' }],
    content: { text: input.text ?? '[]', ...(input.encoding ? { encoding: input.encoding } : {}) },
  },
  ...(input.error === undefined ? {} : { _error: input.error }),
  ...(input.keyRef === undefined ? {} : { _sandbox: { keyRef: input.keyRef } }),
})

const har = (...entries: unknown[]) => ({ log: { entries } })
const ask = (
  path: string,
  search = '',
  method = 'GET',
  body: string | null = null,
  key = 'sandbox-free',
) => ({
  method,
  path,
  search,
  body: body === null ? null : encoder.encode(body),
  keyRef: keyRef(key),
})
const text = (answer: { body: Uint8Array } | undefined) =>
  answer === undefined ? undefined : decoder.decode(answer.body)

describe('the replay index', () => {
  it('serves a repeated request its recorded answers in order, then repeats the last, per session', () => {
    const index = createReplayIndex(
      har(
        entry({ url: 'http://s/v1/pets/26', status: 404, text: '{"a":1}' }),
        entry({ url: 'http://s/v1/pets/26', status: 200, text: '{"b":2}' }),
      ),
      ['/v1'],
    )
    expect(index.answers).toBe(2)
    const seen = [1, 2, 3].map(() => index.next('default', ask('/pets/26'))?.status)
    expect(seen).toEqual([404, 200, 200])
    expect(index.next('w1', ask('/pets/26'))?.status).toBe(404)
    index.rewind('default')
    expect(index.next('default', ask('/pets/26'))?.status).toBe(404)
  })

  it('matches the query in any order, without __ parameters, secrets as recorded', () => {
    const index = createReplayIndex(
      har(entry({ url: 'http://s/v1/pets?status=sold&limit=2&api_key=(redacted)', text: '"x"' })),
      ['/v1'],
    )
    expect(
      text(index.next('s', ask('/pets', '?limit=2&__session=q&api_key=abc&status=sold'))),
    ).toBe('"x"')
    expect(index.next('s', ask('/pets', '?limit=3&status=sold&api_key=abc'))).toBeUndefined()
    expect(replayKey(ask('/pets', '?b=2&a=1&__x=3'))).toBe('GET /pets?a=1&b=2')
  })

  it('matches a POST by its body, JSON compared without whitespace', () => {
    const index = createReplayIndex(
      har(
        entry({ method: 'POST', url: 'http://s/v1/pets', postData: '{"name":"Rex"}', status: 201 }),
      ),
      ['/v1'],
    )
    expect(index.next('s', ask('/pets', '', 'POST', '{ "name" : "Rex" }'))?.status).toBe(201)
    expect(index.next('s', ask('/pets', '', 'POST', '{"name":"Max"}'))).toBeUndefined()
    expect(index.next('s', ask('/pets', '', 'POST', 'not json'))).toBeUndefined()
  })

  it('reads a browser’s export: pseudo-headers, base64 bodies, decoded encodings, other files skipped', () => {
    const index = createReplayIndex(
      har(
        entry({ url: 'https://app.test/index.html', text: '<html>' }),
        entry({
          url: 'https://gw.test/petstore/v1/pets/1',
          text: btoa('{"id":1,"name":"Zoë"}'.replace('ë', 'e')),
          encoding: 'base64',
          headers: [
            { name: ':status', value: '200' },
            { name: 'content-encoding', value: 'br' },
            { name: 'content-length', value: '3' },
            { name: 'transfer-encoding', value: 'chunked' },
            { name: 'x-ratelimit-limit', value: '60' },
          ],
        }),
        { not: 'an entry' },
        entry({ url: 'not a url' }),
      ),
      ['/v1'],
    )
    expect([index.answers, index.skipped]).toEqual([1, 3])
    const answer = index.next('s', ask('/pets/1'))
    expect(answer?.headers).toEqual([['x-ratelimit-limit', '60']])
    expect(text(answer)).toBe('{"id":1,"name":"Zoe"}')
    expect(answer?.base).toBe('https://gw.test/petstore/v1')
  })

  it('replays a recorded failed connection as a failed connection', () => {
    const index = createReplayIndex(
      har(entry({ url: 'http://s/v1/pets', status: 0, error: 'net::ERR_FAILED' })),
      ['/v1'],
    )
    expect(index.next('s', ask('/pets'))?.failed).toBe(true)
  })

  it('leaves out requests recorded without a Bearer token: the sandbox answers those itself', () => {
    const index = createReplayIndex(
      har(
        entry({ url: 'http://s/v1/pets', status: 401, text: '"no key"', keyRef: null }),
        entry({
          url: 'http://s/v1/pets',
          status: 401,
          text: '"token"',
          requestHeaders: [{ name: 'Authorization', value: 'Token abc' }],
        }),
        entry({ url: 'http://s/v1/pets', status: 200, text: '"pets"', keyRef: keyRef('k1') }),
      ),
      ['/v1'],
    )
    expect([index.answers, index.skipped]).toEqual([1, 2])
    expect(text(index.next('s', ask('/pets', '', 'GET', null, 'k2')))).toBe('"pets"')
  })

  it('serves a recorded 401 only to the key that got it; other answers to every key (regression: a 401 replayed to a valid key)', () => {
    const index = createReplayIndex(
      har(
        entry({ url: 'http://s/v1/pets', status: 401, text: '"bad"', keyRef: keyRef('wrong') }),
        entry({ url: 'http://s/v1/pets', status: 200, text: '"one"', keyRef: keyRef('good') }),
        entry({ url: 'http://s/v1/pets', status: 200, text: '"two"', keyRef: keyRef('good') }),
      ),
      ['/v1'],
    )
    const walk = (key: string) =>
      [1, 2, 3].map(() => text(index.next('s', ask('/pets', '', 'GET', null, key))))
    expect(walk('wrong')).toEqual(['"bad"', '"one"', '"two"'])
    // Another key never sees the 401, and walks the sequence on its own.
    expect(walk('good')).toEqual(['"one"', '"two"', '"two"'])
    expect(walk('worker-3')).toEqual(['"one"', '"two"', '"two"'])
  })

  it('reads the key of a browser’s export from its Authorization header, and serves a 401 to every key when the archive cannot tell', () => {
    const index = createReplayIndex(
      har(
        entry({
          url: 'http://s/v1/pets/1',
          status: 401,
          text: '"bad"',
          requestHeaders: [{ name: 'authorization', value: 'Bearer wrong' }],
        }),
        entry({
          url: 'http://s/v1/pets/1',
          text: '"pet"',
          requestHeaders: [{ name: 'authorization', value: 'Bearer good' }],
        }),
        // A sanitized export drops Authorization; a redacted one hides the key.
        entry({ url: 'http://s/v1/pets/2', status: 401, text: '"unknown"' }),
        entry({
          url: 'http://s/v1/pets/3',
          status: 401,
          text: '"redacted"',
          requestHeaders: [{ name: 'authorization', value: 'Bearer good…(redacted)' }],
        }),
      ),
      ['/v1'],
    )
    expect(text(index.next('s', ask('/pets/1', '', 'GET', null, 'good')))).toBe('"pet"')
    expect(text(index.next('t', ask('/pets/1', '', 'GET', null, 'wrong')))).toBe('"bad"')
    expect(text(index.next('s', ask('/pets/2', '', 'GET', null, 'good')))).toBe('"unknown"')
    expect(text(index.next('s', ask('/pets/3', '', 'GET', null, 'good')))).toBe('"redacted"')
  })
})
