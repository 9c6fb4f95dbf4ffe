import { describe, expect, it } from 'vitest'
import {
  isSecretName,
  redactHeaders,
  redactKnownSecret,
  redactKnownSecretInBinary,
  redactUrl,
} from '../../src/journal/redact-secrets.js'

describe('redactHeaders', () => {
  it('keeps the scheme and a hint of Authorization and Proxy-Authorization', () => {
    expect(
      redactHeaders({
        authorization: 'Bearer sandbox-free',
        'proxy-authorization': 'Basic dXNlcjpwYXNzd29yZA==',
      }),
    ).toEqual({
      authorization: 'Bearer sand…(redacted)',
      'proxy-authorization': 'Basic dXNl…(redacted)',
    })
  })

  it('hides X-Api-Key, cookie values and secret-named headers, and nothing else', () => {
    expect(
      redactHeaders({
        'X-Api-Key': 'abcdefgh',
        cookie: 'sid=s3cr3t; theme=dark',
        'x-auth-token': 't0ken',
        'x-client-secret': 'shh',
        'content-type': 'application/json',
        'x-sandbox-scenario': 'slow',
        monkey: 'banana',
      }),
    ).toEqual({
      'x-api-key': '(redacted)',
      cookie: '(redacted)',
      'x-auth-token': '(redacted)',
      'x-client-secret': '(redacted)',
      'content-type': 'application/json',
      'x-sandbox-scenario': 'slow',
      monkey: 'banana',
    })
  })

  it('keeps a header named __proto__ as an own header, drops undefined values, lower-cases names', () => {
    const headers = JSON.parse('{"__proto__":"x","X-Token":"t0ken","Accept":"*/*"}') as Record<
      string,
      string | undefined
    >
    headers.gone = undefined
    const redacted = redactHeaders(headers)
    expect(Object.getPrototypeOf(redacted)).toBe(Object.prototype)
    expect(Object.keys(redacted)).toEqual(['__proto__', 'x-token', 'accept'])
    expect(Object.getOwnPropertyDescriptor(redacted, '__proto__')?.value).toBe('x')
    expect(redacted['x-token']).toBe('(redacted)')
  })

  it('answers the same for a name asked again (memoized) as the first time', () => {
    for (let round = 0; round < 3; round++) {
      expect(isSecretName('X-Amz-Signature')).toBe(true)
      expect(isSecretName('content-type')).toBe(false)
    }
    // More distinct names than are kept: the memory starts over and stays right.
    for (let i = 0; i < 3000; i++) expect(isSecretName(`x-${i}-token`)).toBe(true)
    expect(isSecretName('x-client-secret')).toBe(true)
  })

  it('never shows a short credential whole', () => {
    expect(redactHeaders({ 'x-api-key': 'ab', authorization: 'Bearer x' })).toEqual({
      'x-api-key': '(redacted)',
      authorization: 'Bearer …(redacted)',
    })
  })
})

describe('redactUrl', () => {
  it.each([
    ['/v1/pets?api_key=abc&limit=5', '/v1/pets?api_key=(redacted)&limit=5'],
    ['/v1/pets?apikey=abc', '/v1/pets?apikey=(redacted)'],
    ['/v1/pets?apiKey=abc', '/v1/pets?apiKey=(redacted)'],
    ['/v1/pets?key=abc', '/v1/pets?key=(redacted)'],
    ['/v1/pets?token=abc&access_token=def', '/v1/pets?token=(redacted)&access_token=(redacted)'],
    ['/v1/pets?X-Amz-Signature=abc', '/v1/pets?X-Amz-Signature=(redacted)'],
    ['/v1/pets?api%5Fkey=abc', '/v1/pets?api%5Fkey=(redacted)'],
    ['/v1/pets?limit=5&status=sold&cursor=abc', '/v1/pets?limit=5&status=sold&cursor=abc'],
    ['/v1/pets?monkey=1&%zz=2', '/v1/pets?monkey=1&%zz=2'],
    ['/v1/pets', '/v1/pets'],
  ])('%s → %s', (input, output) => {
    expect(redactUrl(input)).toBe(output)
  })

  it('reads names in words', () => {
    expect(['client_secret', 'refreshToken', 'PASSWORD', 'x.sig'].every(isSecretName)).toBe(true)
    expect(['keys', 'tokenize', 'limit', 'cursor', '__scenario'].some(isSecretName)).toBe(false)
  })
})

describe('redactKnownSecret: the key however an upstream writes it (issue 31)', () => {
  const key = 'ab/c+d~e1'
  const hintText = 'ab/c…(redacted)'

  it.each([
    ['as it is', `x ${key} y`],
    ['with / escaped as \\/ (JSON)', 'x ab\\/c+d~e1 y'],
    [
      'with every character \\u-escaped, lower-case hex',
      `x ${[...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')} y`,
    ],
    [
      'with every character \\u-escaped, upper-case hex',
      'x \\u0061\\u0062\\u002F\\u0063\\u002B\\u0064\\u007E\\u0065\\u0031 y',
    ],
    ['percent-encoded (a URL)', `x ${encodeURIComponent(key)} y`],
    ['percent-encoded in lower case', 'x ab%2fc%2bd~e1 y'],
    ['in a mix of all three', 'x a\\u0062%2Fc+d~e\\u0031 y'],
  ])('redacts it %s', (_, text) => {
    expect(redactKnownSecret(text, key)).toBe(`x ${hintText} y`)
  })

  it('redacts every occurrence and leaves other escapes as they are', () => {
    expect(redactKnownSecret(`"\\n${key}\\/ab\\/c+d~e1%20"`, key)).toBe(
      `"\\n${hintText}\\/${hintText}%20"`,
    )
  })

  it('leaves text alone that only resembles the key (a character short, another case)', () => {
    for (const text of ['ab/c+d~e', 'AB/C+D~E1', 'ab\\\\/c+d~e1', 'ab%2Gc+d~e1'])
      expect(redactKnownSecret(text, key)).toBe(text)
  })

  it('redacts a key past ASCII, escaped by UTF-16 unit or percent-encoded by UTF-8 byte', () => {
    const unicode = 'clé-🔑-key'
    const units = [...unicode]
      .flatMap((c) => [...Array(c.length).keys()].map((i) => c.charCodeAt(i)))
      .map((u) => `\\u${u.toString(16).padStart(4, '0')}`)
      .join('')
    for (const text of [unicode, units, encodeURIComponent(unicode)])
      expect(redactKnownSecret(`[${text}]`, unicode)).toBe('[clé-…(redacted)]')
  })

  it('redacts the key among bytes that are not text, keeping the bytes around it', () => {
    const bytes = [0xff, ...new TextEncoder().encode(`k=${encodeURIComponent(key)}`), 0xc3]
    const binary = String.fromCharCode(...bytes)
    const redacted = redactKnownSecretInBinary(binary, key)
    expect(redacted.charCodeAt(0)).toBe(0xff)
    expect(redacted.charCodeAt(redacted.length - 1)).toBe(0xc3)
    const text = new TextDecoder().decode(
      Uint8Array.from([...redacted.slice(1, -1)].map((c) => c.charCodeAt(0))),
    )
    expect(text).toBe(`k=${hintText}`)
  })

  it('is unchanged without a key, and fast on a large body without one of its characters escaped', () => {
    expect(redactKnownSecret('a\\/b', undefined)).toBe('a\\/b')
    expect(redactKnownSecret('a\\/b', '')).toBe('a\\/b')
    const big = `${'\\"x%20'.repeat(500_000)}${key}`
    const started = performance.now()
    expect(redactKnownSecret(big, key).endsWith(hintText)).toBe(true)
    expect(performance.now() - started).toBeLessThan(5_000)
  })
})
