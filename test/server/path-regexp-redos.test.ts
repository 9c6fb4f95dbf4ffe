import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  MAX_PATH_REGEXP_LENGTH,
  MAX_PATH_REGEXP_PROGRAM,
} from '../../src/server/control/compile-path-regexp.js'
import { killAllChildren, serverOrigin, spawnCli } from './spawn-cli.js'

// Regression: `pathRegExp` is remote input. `^/v1/(a+)+$` against a journaled
// `/v1/aaaa…!` used to block the event loop for good (SIGTERM ignored). The server
// runs in a process of its own here, so a hang fails the test instead of stalling it.
let origin = ''
beforeAll(async () => {
  origin = await serverOrigin(spawnCli(['--port', '0', '--quiet']))
  const journaled = [
    `/v1/${'a'.repeat(40)}!`,
    `/v1/pets/${'1'.repeat(4000)}x`,
    `/v1/${'ab/'.repeat(2500)}!`,
  ]
  for (const path of journaled)
    await fetch(`${origin}${path}`, { headers: { authorization: 'Bearer sandbox-free' } })
  await fetch(`${origin}/v1/pets`, { headers: { authorization: 'Bearer sandbox-free' } })
})
afterAll(() => killAllChildren())

/** Each request within 5 s, or it fails: a stalled server never answers. */
const listWith = async (pattern: string) => {
  const response = await fetch(
    `${origin}/__sandbox/requests?pathRegExp=${encodeURIComponent(pattern)}`,
    { signal: AbortSignal.timeout(5_000) },
  )
  return { status: response.status, body: (await response.json()) as unknown }
}
const expectWith = async (body: unknown) => {
  const response = await fetch(`${origin}/__sandbox/requests/expect`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(5_000),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}
const pathsOf = (body: unknown) => (body as { url: string }[]).map((e) => new URL(e.url).pathname)

describe('pathRegExp never stalls the server (ReDoS)', () => {
  it.each([
    ['^/v1/(a+)+$', 0],
    ['^/v1/(a|a)*$', 0],
    ['^/v1/(a|aa)+$', 0],
    ['^/v1/a*a*a*a*a*a*a*b$', 0],
    ['^/v1/(\\w+\\s?)*$', 1],
    ['^/v1/(.*a){20}$', 0],
    ['^/v1/pets/\\d+$', 0],
    ['^/v1/pets$', 1],
    ['^/v1/(?<what>pets)$', 1],
  ])('answers %s at once, matching as JavaScript would (%i)', async (pattern, count) => {
    const { status, body } = await listWith(pattern)
    expect(status).toBe(200)
    expect(pathsOf(body)).toHaveLength(count)
    const expected = await expectWith({ pathRegExp: pattern, times: count })
    expect(expected.status).toBe(200)
  })

  it('still serves the API after every pattern above', async () => {
    const response = await fetch(`${origin}/v1/pets?limit=1`, {
      headers: { authorization: 'Bearer sandbox-free' },
      signal: AbortSignal.timeout(5_000),
    })
    expect(response.status).toBe(200)
  })

  it.each([
    ['a backreference', '(a)\\1', /backreferences, lookahead, lookbehind/],
    ['a lookahead', '^/v1/(?=pets)', /backreferences, lookahead, lookbehind/],
    ['a repetition count over 1000', 'a{1001}', /cannot be matched in linear time/],
    [
      'a pattern that compiles too large',
      '[\\s\\S]{1000}x',
      new RegExp(`compiles to \\d+ instructions, at most ${MAX_PATH_REGEXP_PROGRAM}`),
    ],
    [
      `a pattern over ${MAX_PATH_REGEXP_LENGTH} characters`,
      'a'.repeat(MAX_PATH_REGEXP_LENGTH + 1),
      /is 257 characters long; at most 256 are allowed/,
    ],
    ['a pattern JavaScript cannot parse', '(', /is not a regular expression/],
  ])('refuses %s with 400 naming pathRegExp and why', async (_what, pattern, why) => {
    const listed = await listWith(pattern)
    expect(listed.status).toBe(400)
    expect(listed.body).toMatchObject({
      code: 'invalid_parameter',
      status: 400,
      message: expect.stringMatching(/^Failed to read the match: pathRegExp /),
      details: [{ field: 'pathRegExp', message: expect.stringMatching(why) }],
    })
    const expected = await expectWith({ pathRegExp: pattern })
    expect(expected).toMatchObject({
      status: 400,
      body: { code: 'validation_failed', details: [{ field: 'pathRegExp' }] },
    })
  })
})
