import { describe, expect, it } from 'vitest'
import { isSecretName, redactHeaders, redactUrl } from '../../src/journal/redact-secrets.js'

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
