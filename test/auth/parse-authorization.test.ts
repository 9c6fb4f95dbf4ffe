import { describe, expect, it } from 'vitest'
import { isValidKeyText, parseAuthorization } from '../../src/auth/parse-authorization.js'

describe('parseAuthorization', () => {
  it('reports a missing header', () => {
    expect(parseAuthorization(undefined)).toEqual({ kind: 'missing' })
  })

  it.each([
    ['Bearer sandbox-free', 'sandbox-free'],
    ['bearer sandbox-free', 'sandbox-free'],
    ['BEARER sandbox-free', 'sandbox-free'],
    ['Bearer   sandbox-free', 'sandbox-free'],
    ['  Bearer sandbox-free  ', 'sandbox-free'],
    ['Bearer abc.DEF_123~+/', 'abc.DEF_123~+/'],
    ['Bearer dG9rZW4=', 'dG9rZW4='],
  ])('reads %j as the token %j', (header, token) => {
    expect(parseAuthorization(header)).toEqual({ kind: 'bearer', token })
  })

  it.each([
    ['two tokens', 'Bearer a b'],
    ['a comma in the token', 'Bearer a,b'],
    ['padding inside the token', 'Bearer a=b'],
    ['a tab before the token', 'Bearer\tabc'],
    ['a quoted token', 'Bearer "abc"'],
  ])('reads %s as malformed with a token sent', (_, header) => {
    expect(parseAuthorization(header)).toEqual({ kind: 'malformed', tokenSent: true })
  })

  it.each([
    ['an empty header', ''],
    ['only spaces', '   '],
    ['the scheme alone', 'Bearer'],
    ['the scheme and spaces', 'Bearer   '],
    ['another scheme', 'Basic c2FuZGJveDo='],
    ['a token without a scheme', 'sandbox-free'],
    ['a scheme glued to the token', 'Bearersandbox-free'],
  ])('reads %s as malformed with no token sent', (_, header) => {
    expect(parseAuthorization(header)).toEqual({ kind: 'malformed', tokenSent: false })
  })
})

describe('parseAuthorization of the same header again', () => {
  it('reads it the same, from a reading no caller can change', () => {
    const first = parseAuthorization('Bearer sandbox-free')
    expect(parseAuthorization('Bearer sandbox-free')).toEqual({
      kind: 'bearer',
      token: 'sandbox-free',
    })
    expect(() => {
      ;(first as { token: string }).token = 'sandbox-enterprise'
    }).toThrow(TypeError)
    expect(parseAuthorization('Bearer sandbox-free')).toEqual({
      kind: 'bearer',
      token: 'sandbox-free',
    })
    // Another header in between, then the first again: each read as itself.
    expect(parseAuthorization('Bearer other')).toEqual({ kind: 'bearer', token: 'other' })
    expect(parseAuthorization('Bearer')).toEqual({ kind: 'malformed', tokenSent: false })
    expect(parseAuthorization('Bearer')).toEqual({ kind: 'malformed', tokenSent: false })
    expect(parseAuthorization(undefined)).toEqual({ kind: 'missing' })
    expect(parseAuthorization('Bearer sandbox-free')).toEqual({
      kind: 'bearer',
      token: 'sandbox-free',
    })
  })
})

describe('isValidKeyText', () => {
  it.each(['sandbox-free', 'sk_sandbox_00ff', 'a', 'x'.repeat(200), 'abc=='])(
    'accepts %j',
    (key) => {
      expect(isValidKeyText(key)).toBe(true)
    },
  )

  it.each(['', 'two words', 'x'.repeat(201), 'quote"', 'comma,', 'é', '=abc'])(
    'refuses %j',
    (key) => {
      expect(isValidKeyText(key)).toBe(false)
    },
  )
})
