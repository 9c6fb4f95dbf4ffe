import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readDataFile } from '../../src/server/data-file/read-data-file.js'
import { createSandboxServer } from '../../src/server/index.js'

// Regression: zod's wording reached control-API 400s ("name Invalid input: expected
// string, received number", "Too small: expected number to be >=1", "Unrecognized key").
const app = createSandboxServer()
let origin = ''
beforeAll(async () => {
  origin = (await app.listen(0, '127.0.0.1')).url
})
afterAll(() => app.close())

const send = async (method: string, path: string, body: unknown) => {
  const response = await fetch(`${origin}/__sandbox${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return {
    status: response.status,
    body: (await response.json()) as {
      code: string
      message: string
      details?: { field: string; message: string }[]
    },
  }
}

/** zod's own words, which a client must never see. */
const ZOD_WORDING =
  /Invalid input|Too (small|big)|Unrecognized key|expected \w+, received|Invalid option/

describe('control-API 400s in the project’s words', () => {
  it.each([
    [
      'PUT',
      '/scenario',
      { name: 5 },
      'The scenario is invalid: name must be a string, got the number 5.',
      [{ field: 'name', message: 'must be a string, got the number 5' }],
    ],
    [
      'POST',
      '/keys',
      { plan: 'enterprise', perMinute: -1 },
      'The key is invalid: perMinute must be at least 1, got the number -1.',
      [{ field: 'perMinute', message: 'must be at least 1, got the number -1' }],
    ],
    [
      'POST',
      '/requests/expect',
      { foo: 1 },
      'The match is invalid: foo is not a field of this body; its fields are method, path, pathRegExp, query, headers, body, status, operation, times.',
      [
        {
          field: 'foo',
          message:
            'is not a field of this body; its fields are method, path, pathRegExp, query, headers, body, status, operation, times',
        },
      ],
    ],
    [
      'POST',
      '/clock',
      { advanceMs: 1, now: '2030-01-01T00:00:00Z' },
      'The clock change is invalid: send exactly one of advanceMs, now and realTime, got advanceMs and now.',
      [
        {
          field: '(body)',
          message: 'send exactly one of advanceMs, now and realTime, got advanceMs and now',
        },
      ],
    ],
    [
      'PUT',
      '/mode',
      { mode: 'live' },
      'The mode is invalid: mode must be one of sandbox, upstream, replay, got the string "live".',
      [
        {
          field: 'mode',
          message: 'must be one of sandbox, upstream, replay, got the string "live"',
        },
      ],
    ],
  ])('%s %s %j: %s', async (method, path, body, message, details) => {
    const answer = await send(method, path, body)
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual({ code: 'validation_failed', message, status: 400, details })
  })

  it.each([
    ['PUT', '/scenario', [{ name: '' }, {}, { name: null }, { name: ['x'] }]],
    [
      'POST',
      '/keys',
      [
        { plan: 5 },
        { plan: 'enterprise', perMinute: 1.5 },
        { plan: 'enterprise', perDay: 1e300 },
        { plan: 'pro', perMinute: 5 },
        { plan: 'pro', key: 'has space' },
        { plan: 'pro', session: 7 },
      ],
    ],
    [
      'POST',
      '/requests/expect',
      [
        { method: 5 },
        { status: 'x' },
        { status: [600] },
        { times: -1 },
        { times: 1.5 },
        { operation: 'deletePet' },
        { query: { limit: null } },
        { headers: [] },
      ],
    ],
    [
      'POST',
      '/clock',
      [{}, { advanceMs: 'x' }, { now: 'yesterday' }, { realTime: false }, { now: 5 }],
    ],
    ['PUT', '/mode', [{}, { mode: 5 }]],
  ])(
    '%s %s: every bad body names its field, what was given and what is allowed',
    async (method, path, bodies) => {
      for (const body of bodies) {
        const answer = await send(method, path, body)
        expect(answer.status, JSON.stringify(body)).toBe(400)
        expect(answer.body.code).toBe('validation_failed')
        expect(answer.body.message).not.toMatch(ZOD_WORDING)
        for (const detail of answer.body.details ?? []) {
          expect(detail.message).not.toMatch(ZOD_WORDING)
          // Named: a field of the body, or the whole body.
          expect(detail.field).not.toBe('')
        }
        expect(answer.body.message).toMatch(/ is invalid: .+\.$/)
      }
    },
  )

  it.each([
    ['PUT', '/scenario', { name: 'slow' }],
    ['PUT', '/mode', { mode: 'sandbox' }],
    ['POST', '/clock', { advanceMs: 0 }],
    ['POST', '/keys', { plan: 'pro' }],
    ['POST', '/requests/expect', { times: 0 }],
  ])(
    '%s %s refuses an unknown field, naming it (every control body is strict)',
    async (method, path, body) => {
      const answer = await send(method, path, { ...body, extra: true })
      expect(answer.status).toBe(400)
      expect(answer.body.details).toEqual([
        {
          field: 'extra',
          message: expect.stringMatching(/^is not a field of this body; its fields are /),
        },
      ])
      // The same body without it is accepted.
      expect((await send(method, path, body)).status).toBeLessThan(300)
    },
  )
})

describe('a corrupt data file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-data-words-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('is explained in the project’s words (regression: "nextId Invalid input: expected number, received undefined")', async () => {
    const file = join(dir, 'pets.json')
    writeFileSync(
      file,
      JSON.stringify({
        version: 2,
        pets: [{ id: 1, name: 'Rex', categoryId: '2', status: 'lost' }],
        sessions: { w1: { nextId: 2 } },
      }),
    )
    const error = await readDataFile(file).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Error)
    const message = (error as Error).message
    expect(message).not.toMatch(ZOD_WORDING)
    expect(message).toContain('nextId is required (a number)')
    expect(message).toContain('pets.0.categoryId must be an integer, got the string "2"')
    expect(message).toContain(
      'pets.0.status must be one of "available", "pending", "sold", got the string "lost"',
    )
    expect(message).toContain('sessions.w1.pets is required (an array)')
  })
})
