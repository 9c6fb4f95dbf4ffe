import { describe, expect, it } from 'vitest'
import { LIMITS } from '../../../src/contract/limits.js'
import type { SuiteContext } from './define-conformance-suite.js'
import { detailFields, expectApiError } from './expect-api-error.js'
import type { WireRequest } from './target.js'

interface WirePet {
  id: number
  name: string
  categoryId: number
  status: string
}

const JSON_TYPE = { 'content-type': 'application/json' }
const MAX_ID = 9007199254740991
const encoder = new TextEncoder()

/** Pads a JSON object text with spaces to exactly `bytes` UTF-8 bytes. */
const padTo = (json: string, bytes: number): string => {
  const size = encoder.encode(json).byteLength
  return `${json.slice(0, -1)}${' '.repeat(bytes - size)}}`
}

/** Contract §4: createPet's body, its validation and its answer. */
export const contractCreateSuite = (ctx: SuiteContext): void => {
  const post = (request: Omit<WireRequest, 'method' | 'path'>) =>
    ctx.sendAs('sandbox-enterprise', { method: 'POST', path: '/pets', ...request })
  const create = (value: unknown) => post({ headers: JSON_TYPE, body: JSON.stringify(value) })
  const createRaw = (body: string) => post({ headers: JSON_TYPE, body })
  const expectInvalid = async (value: unknown, fields: string[]) => {
    const body = expectApiError(await create(value), 400, 'validation_failed')
    expect(detailFields(body)).toEqual([...fields].sort())
    return body
  }

  describe('createPet', () => {
    it('answers 201 with the stored pet and its Location, readable by id', async () => {
      const response = await create({ name: 'Rex', categoryId: 3, status: 'pending' })
      expect(response.status).toBe(201)
      expect(response.headers['content-type']).toMatch(/^application\/json\b/)
      const pet = JSON.parse(response.body) as WirePet
      expect(pet).toEqual({ id: pet.id, name: 'Rex', categoryId: 3, status: 'pending' })
      expect(response.headers.location).toBe(`${ctx.target().baseUrl}/pets/${pet.id}`)
      const fetched = await ctx.sendAs('sandbox-enterprise', {
        method: 'GET',
        path: `/pets/${pet.id}`,
      })
      expect(JSON.parse(fetched.body)).toEqual(pet)
    })

    it('assigns ascending ids after the seeded pets and never reuses one', async () => {
      const ids: number[] = []
      for (const name of ['A', 'B', 'C']) {
        ids.push((JSON.parse((await create({ name, categoryId: 1 })).body) as WirePet).id)
      }
      expect(ids[0]).toBeGreaterThan(25)
      expect(ids).toEqual([...ids].sort((a, b) => a - b))
      expect(new Set(ids).size).toBe(3)
    })

    it('stores the name trimmed and defaults status to available', async () => {
      const pet = JSON.parse((await create({ name: '  Rex \t', categoryId: 1 })).body) as WirePet
      expect(pet.name).toBe('Rex')
      expect(pet.status).toBe('available')
    })

    it.each([
      ['100 emoji (200 UTF-16 units)', '🐶'.repeat(100)],
      ['100 ASCII characters inside whitespace', `  ${'a'.repeat(100)}  `],
      ['50 letters with combining accents (100 code points)', 'e\u0301'.repeat(50)],
      ['one character', 'x'],
    ])('accepts a name of %s', async (_, name) => {
      const response = await create({ name, categoryId: 1 })
      expect(response.status).toBe(201)
      expect((JSON.parse(response.body) as WirePet).name).toBe(name.trim())
    })

    it.each([
      ['101 emoji', '🐶'.repeat(101)],
      ['101 ASCII characters', 'a'.repeat(101)],
      ['101 code points of combining accents', `${'e\u0301'.repeat(50)}e`],
      ['an empty string', ''],
      ['only whitespace', ' \t\n '],
      ['a NUL character', 'Re\u0000x'],
      ['a newline inside', 'Re\nx'],
      ['DEL', 'Rex\u007f'],
      ['a C1 control character', 'Rex\u0085y'],
      ['a lone high surrogate (regression: answered 201)', '\ud800'],
      ['a lone low surrogate after text', 'Rex\udc00'],
      ['a surrogate pair in the wrong order', '\udc3d\ud836'],
      ['a number', 42],
      ['null', null],
      ['an object', { first: 'Rex' }],
    ])('answers 400 validation_failed naming name for %s', async (_, name) => {
      await expectInvalid({ name, categoryId: 1 }, ['name'])
    })

    it('says why a name with a lone surrogate is refused, and stores nothing', async () => {
      const body = await expectInvalid({ name: 'Rex\ud800', categoryId: 1 }, ['name'])
      expect(body.details).toEqual([
        {
          field: 'name',
          message:
            'must be well-formed Unicode: it holds half of a surrogate pair (such as \\ud800) without the other',
        },
      ])
      const listed = await ctx.sendAs('sandbox-enterprise', {
        method: 'GET',
        path: '/pets?limit=100',
      })
      expect(listed.body).not.toMatch(/\\ud800/i)
    })

    it.each([
      ['1', 1],
      ['2^53 - 1', MAX_ID],
    ])('accepts categoryId %s', async (_, categoryId) => {
      const response = await create({ name: 'Rex', categoryId })
      expect(response.status).toBe(201)
      expect((JSON.parse(response.body) as WirePet).categoryId).toBe(categoryId)
    })

    it.each([
      ['0', '0'],
      ['2^53', '9007199254740992'],
      ['-1', '-1'],
      ['1.5', '1.5'],
      ['a string "1"', '"1"'],
      ['true', 'true'],
      ['null', 'null'],
      ['1e400', '1e400'],
    ])('answers 400 validation_failed naming categoryId for %s', async (_, raw) => {
      const body = expectApiError(
        await createRaw(`{"name":"Rex","categoryId":${raw}}`),
        400,
        'validation_failed',
      )
      expect(detailFields(body)).toEqual(['categoryId'])
    })

    it.each(['lost', 'Available', '', null, 1])(
      'answers 400 validation_failed naming status for status %j',
      async (status) => {
        await expectInvalid({ name: 'Rex', categoryId: 1, status }, ['status'])
      },
    )

    it('lists every problem at once in details', async () => {
      await expectInvalid({ name: '', categoryId: '7', status: 'lost' }, [
        'categoryId',
        'name',
        'status',
      ])
      const body = await expectInvalid({}, ['categoryId', 'name'])
      expect(body.details?.every((detail) => detail.message === 'is required')).toBe(true)
    })

    it('ignores unknown fields, id included', async () => {
      const response = await create({
        id: 7,
        name: 'Rex',
        categoryId: 2,
        owner: 'me',
        tags: ['x'],
      })
      expect(response.status).toBe(201)
      const pet = JSON.parse(response.body) as WirePet
      expect(Object.keys(pet).sort()).toEqual(['categoryId', 'id', 'name', 'status'])
      expect(pet.id).not.toBe(7)
    })

    it('treats __proto__ and constructor keys as plain unknown fields', async () => {
      const response = await createRaw(
        '{"name":"Rex","categoryId":1,"__proto__":{"status":"sold","admin":true},"constructor":{"prototype":{"admin":true}}}',
      )
      expect(response.status).toBe(201)
      expect(JSON.parse(response.body)).toEqual({
        id: expect.any(Number),
        name: 'Rex',
        categoryId: 1,
        status: 'available',
      })
      const body = expectApiError(
        await createRaw('{"__proto__":{"name":"Rex","categoryId":1}}'),
        400,
        'validation_failed',
      )
      expect(detailFields(body)).toEqual(['categoryId', 'name'])
    })

    it.each([
      ['an array', '[{"name":"Rex","categoryId":1}]'],
      ['a string', '"Rex"'],
      ['a number', '42'],
      ['null', 'null'],
      ['true', 'true'],
    ])('answers 400 validation_failed for a JSON body that is %s', async (_, body) => {
      expectApiError(await createRaw(body), 400, 'validation_failed')
    })

    it.each([
      ['a truncated object', '{"name":'],
      ['a trailing comma', '{"name":"Rex","categoryId":1,}'],
      ['single quotes', "{'name':'Rex','categoryId':1}"],
      ['two values', '{"name":"Rex","categoryId":1} {}'],
      ['only whitespace', '   '],
    ])('answers 400 malformed_json for %s', async (_, body) => {
      expectApiError(await createRaw(body), 400, 'malformed_json')
    })

    it('answers 400 malformed_json for an empty body', async () => {
      expectApiError(await post({ headers: JSON_TYPE }), 400, 'malformed_json')
      expectApiError(await createRaw(''), 400, 'malformed_json')
    })

    it('answers 400 malformed_json for bytes that are not UTF-8', async () => {
      const bytes = encoder.encode('{"name":"R#x","categoryId":1}')
      bytes[10] = 0xff
      expectApiError(await post({ headers: JSON_TYPE, body: bytes }), 400, 'malformed_json')
    })

    it('answers 400 invalid_content_type without a Content-Type header', async () => {
      const body = encoder.encode(JSON.stringify({ name: 'Rex', categoryId: 1 }))
      expectApiError(await post({ body }), 400, 'invalid_content_type')
    })

    it.each([
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/jsonp',
      'application/merge-patch+json',
      'text/json',
    ])('answers 400 invalid_content_type for Content-Type %s', async (type) => {
      const body = JSON.stringify({ name: 'Rex', categoryId: 1 })
      expectApiError(
        await post({ headers: { 'content-type': type }, body }),
        400,
        'invalid_content_type',
      )
    })

    it.each([
      'application/json; charset=utf-8',
      'application/json;charset=UTF-8',
      'Application/JSON',
    ])('accepts Content-Type %s', async (type) => {
      const body = JSON.stringify({ name: 'Rex', categoryId: 1 })
      expect((await post({ headers: { 'content-type': type }, body })).status).toBe(201)
    })

    it('accepts a valid pet of exactly 64 KiB', async () => {
      const body = padTo(JSON.stringify({ name: 'Rex', categoryId: 1 }), LIMITS.maxBodyBytes)
      expect(encoder.encode(body).byteLength).toBe(64 * 1024)
      const response = await createRaw(body)
      expect(response.status).toBe(201)
    })

    it('validates, not refuses, a 64 KiB body whose name is too long', async () => {
      const json = JSON.stringify({ name: 'a'.repeat(60_000), categoryId: 1 })
      const body = expectApiError(
        await createRaw(padTo(json, LIMITS.maxBodyBytes)),
        400,
        'validation_failed',
      )
      expect(detailFields(body)).toEqual(['name'])
    })

    it('answers 413 payload_too_large for a body of 64 KiB + 1 byte', async () => {
      const body = padTo(JSON.stringify({ name: 'Rex', categoryId: 1 }), LIMITS.maxBodyBytes + 1)
      expect(encoder.encode(body).byteLength).toBe(64 * 1024 + 1)
      expectApiError(await createRaw(body), 413, 'payload_too_large')
    })

    it('answers 413 payload_too_large for a body far over the limit', async () => {
      expectApiError(await createRaw(`"${'a'.repeat(1024 * 1024)}"`), 413, 'payload_too_large')
    })
  })
}
