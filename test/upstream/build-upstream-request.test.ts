import { describe, expect, it } from 'vitest'
import {
  stripSandboxParams,
  upstreamHeaders,
  upstreamUrl,
} from '../../src/upstream/build-upstream-request.js'

describe('stripSandboxParams', () => {
  it.each([
    ['', ''],
    ['?', ''],
    ['?limit=5', '?limit=5'],
    ['?limit=5&__scenario=slow', '?limit=5'],
    ['?__session=w1&__delay=10&__anything=else', ''],
    // Encoded names are the sandbox's too; repeats of either kind keep their order.
    ['?%5F%5Fscenario=x&status=a&status=b', '?status=a&status=b'],
    ['?_single=1&__=2&a__b=3', '?_single=1&a__b=3'],
    // Kept byte for byte: encodings, empty values, bare names, Unicode.
    ['?name=R%C3%A9x+Z&empty=&bare&&__x', '?name=R%C3%A9x+Z&empty=&bare'],
    ['?broken=%E0%A4%A&__s=1', '?broken=%E0%A4%A'],
  ])('turns %j into %j', (search, expected) => {
    expect(stripSandboxParams(search)).toBe(expected)
  })

  it('keeps a long query whole', () => {
    const long = `?cursor=${'a'.repeat(5_000)}&__scenario=slow`
    expect(stripSandboxParams(long)).toBe(`?cursor=${'a'.repeat(5_000)}`)
  })
})

describe('upstreamHeaders', () => {
  it('drops X-Sandbox-*, hop-by-hop, Host and Content-Length, and what Connection lists', () => {
    expect(
      upstreamHeaders(
        {
          host: 'sandbox.local',
          accept: 'application/json',
          'content-length': '12',
          'content-type': 'application/json',
          connection: 'keep-alive, X-Trace',
          'x-trace': 'drop me',
          'keep-alive': 'timeout=5',
          'transfer-encoding': 'chunked',
          te: 'trailers',
          'x-sandbox-scenario': 'slow',
          'X-Sandbox-Session': 'w1',
          authorization: 'Bearer real',
          'x-request-id': 'keep me',
          skipped: undefined,
        },
        undefined,
      ),
    ).toEqual({
      accept: 'application/json',
      'content-type': 'application/json',
      authorization: 'Bearer real',
      'x-request-id': 'keep me',
    })
  })

  it('replaces Authorization with the upstream key, or adds it', () => {
    expect(upstreamHeaders({ authorization: 'Bearer sandbox-free' }, 'real-key')).toEqual({
      authorization: 'Bearer real-key',
    })
    expect(upstreamHeaders({}, 'real-key')).toEqual({ authorization: 'Bearer real-key' })
  })
})

describe('upstreamUrl', () => {
  it('joins the base URL, the path below the base path and the stripped query', () => {
    expect(upstreamUrl('https://gw.example.test/petstore/v2', '/pets/7', '?__s=1')).toBe(
      'https://gw.example.test/petstore/v2/pets/7',
    )
    expect(upstreamUrl('http://127.0.0.1:9/v1', '', '?limit=1')).toBe(
      'http://127.0.0.1:9/v1?limit=1',
    )
  })
})
