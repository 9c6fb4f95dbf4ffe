import { describe, expect, it } from 'vitest'
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
}

const entry = (input: EntryInput) => ({
  request: {
    method: input.method ?? 'GET',
    url: input.url,
    ...(input.postData === undefined ? {} : { postData: { text: input.postData } }),
  },
  response: {
    status: input.status ?? 200,
    headers: input.headers ?? [{ name: 'Content-Type', value: 'application/json' }],
    content: { text: input.text ?? '[]', ...(input.encoding ? { encoding: input.encoding } : {}) },
  },
  ...(input.error === undefined ? {} : { _error: input.error }),
})

const har = (...entries: unknown[]) => ({ log: { entries } })
const ask = (path: string, search = '', method = 'GET', body: string | null = null) => ({
  method,
  path,
  search,
  body: body === null ? null : encoder.encode(body),
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
})
