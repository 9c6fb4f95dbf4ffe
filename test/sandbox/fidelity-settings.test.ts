import { describe, expect, it } from 'vitest'
import { createSandboxCore, type SandboxOptions } from '../../src/index.js'
import { belowBasePath } from '../../src/pipeline/locate.js'
import { matchOperation } from '../../src/pipeline/route.js'
import { createAnswerValidator } from '../../src/validation/create-answer-validator.js'

const BASE = 'https://api.example.test/v1'
const KEY = { authorization: 'Bearer sandbox-enterprise' }
const JSON_HEADERS = { ...KEY, 'content-type': 'application/json' }

/** A sandbox with these settings, and a call that also runs the validator with the same settings. */
const sandboxWith = (options: SandboxOptions) => {
  const core = createSandboxCore(options)
  const validate = createAnswerValidator({ fidelity: core.fidelity })
  const call = async (
    method: string,
    path: string,
    body?: string,
    headers: Record<string, string> = KEY,
  ) => {
    const url = `${BASE}${path}`
    const response = await core.handle({
      method,
      url,
      headers: body === undefined ? headers : { ...JSON_HEADERS, ...headers },
      body: body ?? null,
    })
    if (response === null) throw new Error('not the API’s')
    const match = matchOperation(method, belowBasePath(new URL(url).pathname, '/v1') ?? '')
    const violations = validate({
      operation: match.kind === 'found' ? match.value.id : null,
      method,
      url,
      requestBody: body ?? null,
      status: response.status,
      headers: response.headers,
      body: response.body,
    })
    expect(violations, `${method} ${path} → ${response.status} ${response.body}`).toEqual([])
    const json =
      response.body === null || response.body === '' ? undefined : JSON.parse(response.body)
    return { ...response, json }
  }
  return { core, call }
}

describe('fidelity settings (contract §16)', () => {
  it('keep today’s behaviour by default', async () => {
    const { core, call } = sandboxWith({})
    expect(core.fidelity).toEqual({
      limitOutOfRange: 'reject',
      unknownStatusFilter: 'reject',
      defaultStatus: 'available',
      nameMaxLength: 100,
      unknownFields: 'ignore',
      pagination: 'cursor',
      totalCountHeader: 'X-Total-Count',
      errorCodes: {},
      maxBodyBytes: 65_536,
    })
    expect((await call('GET', '/pets?limit=0')).status).toBe(400)
    expect((await call('GET', '/pets?status=adopted')).status).toBe(400)
  })

  it.each([
    ['limit=0', 1],
    ['limit=-7', 1],
    ['limit=500', 100],
    ['limit=abc', 20],
    ['limit=5.5', 20],
    ['limit=', 20],
    ['limit=42', 42],
  ])('limitOutOfRange "clamp" answers %s with %d pets', async (query, count) => {
    const { call } = sandboxWith({ limitOutOfRange: 'clamp', pets: 150 })
    const response = await call('GET', `/pets?${query}`)
    expect(response.status).toBe(200)
    expect(response.json).toHaveLength(count)
  })

  it('limitOutOfRange "clamp" still refuses a repeated limit', async () => {
    const { call } = sandboxWith({ limitOutOfRange: 'clamp' })
    expect((await call('GET', '/pets?limit=1&limit=2')).status).toBe(400)
  })

  it('unknownStatusFilter "ignore" lists unfiltered, "empty" lists nothing', async () => {
    const ignore = sandboxWith({ unknownStatusFilter: 'ignore' })
    const all = await ignore.call('GET', '/pets')
    const ignored = await ignore.call('GET', '/pets?status=adopted')
    expect(ignored.status).toBe(200)
    expect(ignored.json).toEqual(all.json)
    const empty = sandboxWith({ unknownStatusFilter: 'empty' })
    const none = await empty.call('GET', '/pets?status=adopted')
    expect(none.status).toBe(200)
    expect(none.json).toEqual([])
    expect(none.headers['X-Total-Count']).toBe('0')
    expect(none.headers.Link).toBeUndefined()
    expect((await empty.call('GET', '/pets?status=sold')).json.length).toBeGreaterThan(0)
  })

  it('defaultStatus gives a pet sent without status that status', async () => {
    const { call } = sandboxWith({ defaultStatus: 'pending' })
    const created = await call('POST', '/pets', '{"name":"Rex","categoryId":1}')
    expect(created.status).toBe(201)
    expect(created.json.status).toBe('pending')
    const sold = await call('POST', '/pets', '{"name":"Mia","categoryId":1,"status":"sold"}')
    expect(sold.json.status).toBe('sold')
  })

  it('nameMaxLength sets the longest name, in code points after trimming', async () => {
    const { call } = sandboxWith({ nameMaxLength: 5 })
    expect((await call('POST', '/pets', '{"name":"  🐈🐈🐈🐈🐈 ","categoryId":1}')).status).toBe(
      201,
    )
    const refused = await call('POST', '/pets', '{"name":"Rexxxx","categoryId":1}')
    expect(refused.status).toBe(400)
    expect(refused.json.details).toEqual([
      {
        field: 'name',
        message: 'must have at most 5 characters (Unicode code points) after trimming',
      },
    ])
    const long = sandboxWith({ nameMaxLength: 10_000 })
    const created = await long.call(
      'POST',
      '/pets',
      JSON.stringify({ name: 'x'.repeat(10_000), categoryId: 1 }),
    )
    expect(created.status).toBe(201)
  })

  it('unknownFields "reject" names every unknown field, with the other problems', async () => {
    const { call } = sandboxWith({ unknownFields: 'reject' })
    const refused = await call(
      'POST',
      '/pets',
      '{"name":"Rex","categoryId":0,"id":7,"colour":"red"}',
    )
    expect(refused.status).toBe(400)
    expect(refused.json.code).toBe('validation_failed')
    expect(refused.json.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'categoryId',
      'colour',
      'id',
    ])
    expect(refused.json.message).toMatch(/colour is not a field of NewPet/)
    expect((await call('POST', '/pets', '{"name":"Rex","categoryId":1}')).status).toBe(201)
  })

  it('pagination "offset" pages with offset in the next link', async () => {
    const { call } = sandboxWith({ pagination: 'offset', pets: 100 })
    const first = await call('GET', '/pets?limit=10&status=available')
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.Link ?? '')?.[1] ?? ''
    expect(new URL(next).searchParams.get('offset')).toBe('10')
    const seen = [...first.json]
    let link: string | undefined = next
    while (link !== undefined) {
      const page = await call('GET', link.slice(BASE.length))
      seen.push(...page.json)
      link = /<([^>]+)>; rel="next"/.exec(page.headers.Link ?? '')?.[1]
    }
    const all = await call('GET', '/pets?limit=100&status=available')
    expect(seen).toEqual(all.json)
    expect((await call('GET', '/pets?offset=-1')).status).toBe(400)
    expect((await call('GET', '/pets?offset=1&offset=2')).status).toBe(400)
    expect((await call('GET', '/pets?offset=100')).json).toEqual([])
    // The cursor is not a parameter of offset paging: ignored like any unknown parameter.
    expect((await call('GET', '/pets?cursor=nonsense')).status).toBe(200)
  })

  it('pagination "none" answers the first page without a next link', async () => {
    const { call } = sandboxWith({ pagination: 'none' })
    const page = await call('GET', '/pets?limit=2')
    expect(page.json).toHaveLength(2)
    expect(page.headers.Link).toBeUndefined()
    expect(page.headers['X-Total-Count']).toBe('25')
  })

  it('totalCountHeader names the header, or false sends none', async () => {
    const named = await sandboxWith({ totalCountHeader: 'X-Total' }).call('GET', '/pets')
    expect(named.headers['X-Total']).toBe('25')
    expect(named.headers['X-Total-Count']).toBeUndefined()
    const none = await sandboxWith({ totalCountHeader: false }).call('GET', '/pets')
    expect(Object.keys(none.headers).filter((h) => /total/i.test(h))).toEqual([])
  })

  it('errorCodes renames the codes of every error answer and leaves the others', async () => {
    const { call } = sandboxWith({
      errorCodes: {
        pet_not_found: 'not_found',
        route_not_found: 'not_found',
        missing_api_key: 'unauthorized',
      },
    })
    expect((await call('GET', '/pets/999999')).json.code).toBe('not_found')
    expect((await call('GET', '/owners')).json.code).toBe('not_found')
    expect((await call('GET', '/pets', undefined, {})).json.code).toBe('unauthorized')
    expect((await call('GET', '/pets?limit=0')).json.code).toBe('invalid_parameter')
    expect((await call('GET', '/pets?__scenario=server-error')).json.code).toBe('internal_error')
  })

  it('maxBodyBytes sets the largest body', async () => {
    const small = sandboxWith({ maxBodyBytes: 2_048 })
    const refused = await small.call('POST', '/pets', ' '.repeat(2_049))
    expect(refused.status).toBe(413)
    expect(refused.json.message).toBe('The request body is larger than 2048 bytes.')
    expect((await small.call('POST', '/pets', ' '.repeat(2_048))).status).toBe(400)
    const large = sandboxWith({ maxBodyBytes: 100_000 })
    expect((await large.call('POST', '/pets', ' '.repeat(99_000))).json.code).toBe('malformed_json')
  })

  it.each<[string, SandboxOptions, RegExp]>([
    [
      'limitOutOfRange',
      { limitOutOfRange: 'cap' as 'clamp' },
      /limitOutOfRange must be one of "reject", "clamp", got "cap"/,
    ],
    [
      'unknownStatusFilter',
      { unknownStatusFilter: 'drop' as 'empty' },
      /unknownStatusFilter must be one of/,
    ],
    [
      'defaultStatus',
      { defaultStatus: 'adopted' as 'sold' },
      /defaultStatus must be one of "available", "pending", "sold"/,
    ],
    [
      'nameMaxLength 0',
      { nameMaxLength: 0 },
      /nameMaxLength must be a whole number from 1 to 10000, got 0/,
    ],
    ['nameMaxLength 1.5', { nameMaxLength: 1.5 }, /nameMaxLength must be a whole number/],
    ['unknownFields', { unknownFields: 'strip' as 'ignore' }, /unknownFields must be one of/],
    [
      'pagination',
      { pagination: 'page' as 'none' },
      /pagination must be one of "cursor", "offset", "none"/,
    ],
    [
      'totalCountHeader true',
      { totalCountHeader: true as unknown as false },
      /totalCountHeader must be a header name or false/,
    ],
    [
      'totalCountHeader with a space',
      { totalCountHeader: 'X Total' },
      /totalCountHeader must be a header name/,
    ],
    [
      'totalCountHeader Link',
      { totalCountHeader: 'link' },
      /"link" is a header the sandbox sends for something else/,
    ],
    [
      'errorCodes of an unknown code',
      { errorCodes: { nope: 'x' } as never },
      /renames "nope", which is not one of the sandbox's error codes/,
    ],
    [
      'errorCodes to an empty code',
      { errorCodes: { pet_not_found: '' } },
      /errorCodes.pet_not_found must be a code/,
    ],
    ['errorCodes not an object', { errorCodes: 'x' as never }, /errorCodes must be an object/],
    [
      'maxBodyBytes',
      { maxBodyBytes: 100 },
      /maxBodyBytes must be a whole number from 1024 to 10485760, got 100/,
    ],
  ])('refuses a bad %s with a message naming the rule', (_what, options, message) => {
    expect(() => createSandboxCore(options)).toThrow(message)
    expect(() => createSandboxCore(options)).toThrow(/^Failed to create the sandbox: /)
  })
})
