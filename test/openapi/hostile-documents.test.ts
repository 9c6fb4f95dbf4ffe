import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ApiError } from '../../src/http/api-error.js'
import type { CompiledOperation } from '../../src/openapi/compile-openapi-operations.js'
import {
  createOpenApiOperations,
  type OpenApiOperations,
} from '../../src/openapi/create-openapi-operations.js'
import { loadOpenApiDocument } from '../../src/openapi/load-openapi-document.js'
import { mergeOpenApiDocument } from '../../src/openapi/merge-openapi-document.js'
import { resolveOptions } from '../../src/sandbox/resolve-options.js'

// Issue 35 items 1-5, 16-18 and 21: real documents' shapes and hostile ones, made here in a temp folder.
const root = mkdtempSync(join(tmpdir(), 'openapi-hostile-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const settings = resolveOptions({}).settings
const open = (source: string | Record<string, unknown>): Promise<OpenApiOperations> =>
  createOpenApiOperations({ source, basePath: '/v1', seed: 3 })

const call = (
  api: OpenApiOperations,
  id: string,
  path: string,
  input: { params?: Record<string, string>; body?: unknown; method?: string } = {},
): { status: number; json: unknown } => {
  const op = api.operations.find((o) => o.id === id) as CompiledOperation
  const url = new URL(`http://localhost/v1${path}`)
  try {
    const answer = api.answer(op, {
      request: {
        method: input.method ?? op.method,
        url: url.href,
        headers: input.body === undefined ? {} : { 'content-type': 'application/json' },
        body:
          input.body === undefined ? null : new TextEncoder().encode(JSON.stringify(input.body)),
      },
      url,
      params: input.params ?? {},
      settings,
      session: 's',
    }) as { status: number; body: string | null }
    return { status: answer.status, json: answer.body === null ? null : JSON.parse(answer.body) }
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, json: null }
    throw error
  }
}

const ok = (schema: unknown) => ({
  description: 'ok',
  content: { 'application/json': { schema } },
})
const doc = (paths: Record<string, unknown>, components: Record<string, unknown> = {}) => ({
  openapi: '3.0.3',
  info: { title: 'hostile', version: '1' },
  paths,
  components: { schemas: components },
})
const file = (name: string, content: string): string => {
  const path = join(root, name)
  mkdirSync(join(path, '..'), { recursive: true })
  writeFileSync(path, content)
  return path
}
const refusal = async (source: string | Record<string, unknown>): Promise<string> => {
  try {
    await open(source)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    expect(message).toMatch(/^Failed to load the OpenAPI document: /)
    expect(message).not.toMatch(/\n/)
    expect(message.length).toBeLessThan(700)
    return message
  }
  throw new Error('the document was not refused')
}

describe('recursive schemas (item 1)', () => {
  const NODE = {
    type: 'object',
    required: ['id'],
    properties: {
      id: { type: 'integer' },
      name: { type: 'string' },
      children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
      parent: { $ref: '#/components/schemas/Node' },
    },
  }
  const tree = doc(
    {
      '/nodes': {
        get: {
          responses: { 200: ok({ type: 'array', items: { $ref: '#/components/schemas/Node' } }) },
        },
        post: {
          requestBody: {
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } },
          },
          responses: { 201: ok({ $ref: '#/components/schemas/Node' }) },
        },
      },
      '/nodes/{id}': {
        get: {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
          responses: { 200: ok({ $ref: '#/components/schemas/Node' }) },
        },
      },
      // A cycle through allOf and oneOf, each its own first choice.
      '/filters': {
        get: { responses: { 200: ok({ $ref: '#/components/schemas/Filter' }) } },
      },
    },
    {
      Node: NODE,
      Filter: {
        oneOf: [{ $ref: '#/components/schemas/Filter' }, { type: 'string' }],
        allOf: [{ $ref: '#/components/schemas/Filter' }],
      },
    },
  )

  it('starts, keeps the cycle, answers trees that are valid and bounded, and checks bodies as they are', async () => {
    const api = await open(tree)
    const list = call(api, 'GET /nodes', '/nodes')
    expect(list.status).toBe(200)
    const op = api.operations.find((o) => o.id === 'GET /nodes') as CompiledOperation
    expect(op.success.check?.(list.json)).toBe(true)
    expect(JSON.stringify(list.json).length).toBeLessThan(1_000_000)
    // Deep input is validated as it is: a wrong type 5 levels down is refused.
    const deep = { id: 1, children: [{ id: 2, children: [{ id: 3, children: [{ id: 'x' }] }] }] }
    expect(call(api, 'POST /nodes', '/nodes', { body: deep }).status).toBe(400)
    const good = { id: 1, name: 'a', children: [{ id: 2, children: [{ id: 3 }] }] }
    expect(call(api, 'POST /nodes', '/nodes', { body: good }).status).toBe(201)
    expect(call(api, 'GET /filters', '/filters').status).toBe(200)
  })

  it('serves the document with a shared or recursive schema as a component of its own', async () => {
    const api = await open(tree)
    const text = mergeOpenApiDocument(JSON.stringify({ openapi: '3.1.0', paths: {} }), api)
    const merged = JSON.parse(text) as { components: { schemas: Record<string, unknown> } }
    expect(Object.keys(merged.components.schemas)).toContain('openapi-Node')
    expect(text).toContain('"$ref": "#/components/schemas/openapi-Node"')
  })
})

describe('the served document of a document full of shared schemas', () => {
  it('writes a diamond of $refs 25 levels deep once, also where an extension names it', async () => {
    const schemas: Record<string, unknown> = { S25: { type: 'string' } }
    for (let i = 0; i < 25; i += 1)
      schemas[`S${i}`] = {
        type: 'object',
        properties: {
          a: { $ref: `#/components/schemas/S${i + 1}` },
          b: { $ref: `#/components/schemas/S${i + 1}` },
        },
      }
    const api = await open(
      doc(
        {
          '/d': {
            get: {
              'x-expansion': { oneOf: [{ $ref: '#/components/schemas/S0' }] },
              responses: { 200: ok({ $ref: '#/components/schemas/S0' }) },
            },
          },
        },
        schemas,
      ),
    )
    const text = mergeOpenApiDocument(JSON.stringify({ openapi: '3.1.0', paths: {} }), api)
    expect(text.length).toBeLessThan(100_000)
    expect(text).toContain('"$ref": "#/components/schemas/openapi-S24"')
  })
})

describe('patterns, ids and formats (items 3, 4, 5, 18)', () => {
  const patterned = doc({
    '/keys/{key}': {
      get: {
        parameters: [
          // ECMA-262 without the u flag (DigitalOcean): escapes the u flag refuses.
          {
            name: 'key',
            in: 'path',
            required: true,
            schema: { type: 'string', pattern: '^[\\-\\:a-z]+$' },
          },
          // Catastrophic on a backtracking engine: 40 "a"s and a "!" would run for hours.
          { name: 'q', in: 'query', schema: { type: 'string', pattern: '^(a+)+$' } },
          { name: 'b', in: 'query', schema: { type: 'string', pattern: '^(a)\\1$' } },
          { name: 'f', in: 'query', schema: { type: 'string', format: 'sid' } },
          { name: 'g', in: 'query', schema: { type: 'string', format: 'phone-number' } },
        ],
        responses: { 200: ok({ type: 'object' }) },
      },
    },
  })

  it('compiles ECMA-262 patterns without the u flag and matches in linear time', async () => {
    const api = await open(patterned)
    const op = api.operations[0] as CompiledOperation
    const key = op.parameters.find((p) => p.name === 'key')
    const q = op.parameters.find((p) => p.name === 'q')
    expect(key?.check('a-b:c')).toBe(true)
    expect(key?.check('a b')).not.toBe(true)
    expect(q?.check(`${'a'.repeat(40)}!`)).not.toBe(true)
    expect(q?.check('a'.repeat(40))).toBe(true)
  })

  it('says once, in one line each, which patterns and formats it cannot check', async () => {
    const api = await open(patterned)
    expect(api.notices).toHaveLength(2)
    expect(api.notices[0]).toMatch(/2 formats the sandbox does not know \("phone-number", "sid"\)/)
    expect(api.notices[1]).toMatch(/1 pattern cannot be matched in linear time/)
    const b = (api.operations[0] as CompiledOperation).parameters.find((p) => p.name === 'b')
    expect(b?.check('anything')).toBe(true)
  })

  it('starts a document whose schemas repeat one $id (Box)', async () => {
    const api = await open(
      doc(
        {
          '/a': { get: { responses: { 200: ok({ $ref: '#/components/schemas/A' }) } } },
          '/b': { get: { responses: { 200: ok({ $ref: '#/components/schemas/B' }) } } },
        },
        {
          A: {
            $id: 'https://example.test/item',
            type: 'object',
            properties: { a: { type: 'string' } },
          },
          B: {
            $id: 'https://example.test/item',
            type: 'object',
            properties: { b: { type: 'integer' } },
          },
        },
      ),
    )
    expect(call(api, 'GET /a', '/a').status).toBe(200)
    expect(call(api, 'GET /b', '/b').status).toBe(200)
  })

  it('checks uniqueItems in linear time: 100,000 distinct objects', async () => {
    const items = Array.from({ length: 100_000 }, (_, i) => ({ n: i }))
    const api = await open(
      doc({
        '/many': {
          get: {
            responses: {
              200: {
                description: 'ok',
                content: {
                  'application/json': {
                    schema: { type: 'array', uniqueItems: true, items: { type: 'object' } },
                    example: items,
                  },
                },
              },
            },
          },
        },
      }),
    )
    const check = (api.operations[0] as CompiledOperation).success.check
    expect(check?.(items)).toBe(true)
    expect(check?.([...items, { n: 5 }])).not.toBe(true)
  })
})

describe('paths (item 21)', () => {
  it('reaches a literal path listed after a templated one, and one collection under two parameter names', async () => {
    const api = await open(
      doc(
        {
          '/things/{a}': {
            get: {
              parameters: [{ name: 'a', in: 'path', required: true, schema: { type: 'integer' } }],
              responses: { 200: ok({ $ref: '#/components/schemas/Thing' }) },
            },
          },
          '/things/{b}': {
            put: {
              parameters: [{ name: 'b', in: 'path', required: true, schema: { type: 'integer' } }],
              requestBody: {
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
              },
              responses: { 200: ok({ $ref: '#/components/schemas/Thing' }) },
            },
          },
          '/things': {
            get: {
              responses: {
                200: ok({ type: 'array', items: { $ref: '#/components/schemas/Thing' } }),
              },
            },
          },
          '/things/special': {
            get: {
              responses: {
                200: ok({ type: 'object', properties: { special: { type: 'boolean' } } }),
              },
            },
          },
        },
        {
          Thing: {
            type: 'object',
            properties: { id: { type: 'integer' }, name: { type: 'string' } },
          },
        },
      ),
    )
    expect(api.operations.map((o) => o.path).indexOf('/things/special')).toBeLessThan(
      api.operations.map((o) => o.path).indexOf('/things/{a}'),
    )
    const listed = call(api, 'GET /things', '/things').json as { id: number }[]
    const id = String(listed[0]?.id)
    expect(call(api, 'GET /things/{a}', `/things/${id}`, { params: { a: id } }).status).toBe(200)
    const put = call(api, 'PUT /things/{b}', `/things/${id}`, {
      params: { b: id },
      body: { id: Number(id), name: 'renamed' },
    })
    expect(put.status).toBe(200)
    expect(call(api, 'GET /things/{a}', `/things/${id}`, { params: { a: id } }).json).toMatchObject(
      {
        name: 'renamed',
      },
    )
  })

  it('leaves out, and says so, a path no request can reach (Box: "#" in the path)', async () => {
    const api = await open(
      doc({
        '/files/{id}': { put: { responses: { 200: ok({ type: 'object' }) } } },
        '/files/{id}#add_shared_link': { put: { responses: { 200: ok({ type: 'object' }) } } },
      }),
    )
    expect(api.operations.map((o) => o.path)).toEqual(['/files/{id}'])
    expect(api.notices).toEqual([
      expect.stringMatching(
        /1 path with "#" or "\?" in it \("\/files\/\{id\}#add_shared_link"\) no request can reach/,
      ),
    ])
  })

  it('keeps two operations of one path under different prefixes apart', async () => {
    const api = await open(
      doc({
        '/v1/things': {
          get: {
            responses: {
              200: ok({ type: 'object', properties: { v: { enum: [1] } }, required: ['v'] }),
            },
          },
        },
        '/things': {
          get: {
            responses: {
              200: ok({ type: 'object', properties: { v: { enum: [0] } }, required: ['v'] }),
            },
          },
        },
      }),
    )
    const paths = api.operations.map((o) => [o.path, o.success.schema])
    expect(new Set(paths.map(([p]) => p)).size).toBe(2)
    expect(call(api, 'GET /things', '/things').json).toEqual({ v: 0 })
  })
})

describe('what a document may read (item 16)', () => {
  const folder = join(root, 'api')
  const refTo = (target: string) =>
    JSON.stringify(doc({ '/a': { get: { responses: { 200: ok({ $ref: target }) } } } }))

  it('reads a file beside the document and below its folder', async () => {
    file('api/schemas/thing.yaml', 'type: object\nproperties:\n  id: { type: integer }\n')
    const api = await open(file('api/ok.json', refTo('schemas/thing.yaml')))
    expect(call(api, 'GET /a', '/a').status).toBe(200)
  })

  it.each([
    ['../outside.yaml', /reads outside the document's folder/],
    ['/etc/passwd', /reads outside the document's folder/],
    ['file:///etc/passwd', /reads outside the document's folder/],
    ['../../../../../../proc/self/environ', /reads outside the document's folder/],
    ['https://example.test/schema.json', /names a URL; the sandbox fetches nothing/],
    ['missing.yaml', /no such file/],
  ])('refuses the $ref %s in one line naming it', async (target, reason) => {
    file('outside.yaml', 'type: string\n')
    const message = await refusal(file('api/bad.json', refTo(target)))
    expect(message).toMatch(reason)
    expect(message).toContain(`#/paths/~1a/get/responses/200/content/application~1json/schema`)
  })

  it('refuses a symlink inside the folder that leads out of it', async () => {
    symlinkSync('/etc/hostname', join(folder, 'link.yaml'))
    expect(await refusal(file('api/link.json', refTo('link.yaml')))).toMatch(/reads outside/)
  })

  it('refuses special files: a FIFO (which would hang the start) and /dev/zero as the document', async () => {
    execFileSync('mkfifo', [join(folder, 'fifo.yaml')])
    expect(await refusal(file('api/fifo.json', refTo('fifo.yaml')))).toMatch(/not a regular file/)
    expect(await refusal('/dev/zero')).toMatch(/not a regular file/)
  })

  it('refuses a file ref in a document given as an object', async () => {
    expect(await refusal(JSON.parse(refTo('schemas/thing.yaml')))).toMatch(/given as an object/)
  })
})

describe('what a document may cost (item 17)', () => {
  it('refuses a YAML alias bomb in one line', async () => {
    const lines = [
      'openapi: 3.0.3',
      'info: { title: t, version: "1" }',
      'a0: &a0 [x, x, x, x, x, x, x, x, x, x]',
    ]
    for (let i = 1; i < 12; i += 1)
      lines.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      )
    lines.push('paths: {}')
    expect(await refusal(file('bomb.yaml', lines.join('\n')))).toMatch(/alias/i)
  })

  it('refuses minLength 1e8 and nested minItems, naming the place', async () => {
    const long = doc({
      '/a': { get: { responses: { 200: ok({ type: 'string', minLength: 1e8 }) } } },
    })
    expect(await refusal(long)).toMatch(
      /demands 100000000 characters.* at #\/paths\/~1a\/get\/responses\/200\/content\/application~1json\/schema\. Lower it\./,
    )
    const wide = doc({
      '/a': {
        get: {
          responses: {
            200: ok({
              type: 'array',
              minItems: 1000,
              uniqueItems: true,
              items: { type: 'array', minItems: 1000, items: { type: 'integer' } },
            }),
          },
        },
      },
    })
    expect(await refusal(wide)).toMatch(/over 100000 values/)
  })

  it('refuses a 10,000-deep schema and a chain of 10,000 $refs without overflowing the stack', async () => {
    // Written as text: JSON.stringify itself overflows the stack on such an object.
    const deep = `${'{"type":"object","properties":{"a":'.repeat(10_000)}{"type":"string"}${'}}'.repeat(10_000)}`
    const text = JSON.stringify(doc({ '/a': { get: { responses: { 200: ok('DEEP') } } } })).replace(
      '"DEEP"',
      deep,
    )
    expect(await refusal(file('deep.json', text))).toMatch(
      /nests deeper than 200 levels at #\/paths/,
    )
    const chain: Record<string, unknown> = {}
    for (let i = 0; i < 10_000; i += 1)
      chain[`S${i}`] = {
        type: 'object',
        properties: { next: { $ref: `#/components/schemas/S${i + 1}` } },
      }
    chain.S10000 = { type: 'string' }
    const refs = doc(
      { '/a': { get: { responses: { 200: ok({ $ref: '#/components/schemas/S0' }) } } } },
      chain,
    )
    expect(await refusal(refs)).toMatch(/once its \$refs are followed, .*deeper than 200 levels/)
  })

  it('loads a document the caller gave as an object without changing it', async () => {
    const given = doc(
      { '/a': { get: { responses: { 200: ok({ $ref: '#/components/schemas/A' }) } } } },
      {
        A: { type: 'object', properties: { self: { $ref: '#/components/schemas/A' } } },
      },
    )
    const before = structuredClone(given)
    await loadOpenApiDocument(given)
    expect(given).toEqual(before)
  })
})

describe('keys named as Object.prototype members (__proto__, constructor)', () => {
  // A JSON file: JSON.parse keeps `__proto__` as an own key, as any real document would.
  const ITEM = {
    type: 'object',
    required: ['id', 'name'],
    properties: {
      id: { type: 'integer' },
      name: { type: 'string' },
    },
  }
  // In an allOf part: merging the parts copies the properties by name.
  const MORE = {
    type: 'object',
    required: ['__proto__', 'constructor'],
    properties: { constructor: { type: 'string', example: 'c' } },
  }
  const text = JSON.stringify(
    doc(
      {
        '/items': {
          get: {
            responses: { 200: ok({ type: 'array', items: { $ref: '#/components/schemas/Item' } }) },
          },
          post: {
            requestBody: {
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } },
            },
            responses: { 201: ok({ $ref: '#/components/schemas/Item' }) },
          },
        },
        '/items/{id}': {
          get: {
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
            responses: { 200: ok({ $ref: '#/components/schemas/Item' }) },
          },
        },
      },
      { Item: { allOf: [ITEM, MORE] } },
    ),
  )

  it('starts, keeps them as fields of records and answers, and answers valid', async () => {
    // An object literal's __proto__ sets the prototype: the property goes into the JSON text.
    const source = file(
      'proto-keys.json',
      text.replace(
        '"constructor":{',
        '"__proto__":{"type":"string","example":"p"},"constructor":{',
      ),
    )
    const api = await open(source)
    const list = call(api, 'GET /items', '/items')
    expect(list.status).toBe(200)
    const listOp = api.operations.find((o) => o.id === 'GET /items') as CompiledOperation
    expect(listOp.success.check?.(list.json)).toBe(true)
    for (const item of list.json as Record<string, unknown>[]) {
      expect(Object.getOwnPropertyDescriptor(item, '__proto__')?.value).toBe('p')
      expect(Object.getOwnPropertyDescriptor(item, 'constructor')?.value).toBe('c')
    }
    const body = JSON.parse('{"id":7,"name":"n","__proto__":"own","constructor":"c2"}')
    const created = call(api, 'POST /items', '/items', { body })
    expect(created.status).toBe(201)
    const record = created.json as Record<string, unknown>
    expect(Object.hasOwn(record, '__proto__')).toBe(true)
    expect(Object.getOwnPropertyDescriptor(record, '__proto__')?.value).toBe('own')
    expect(Object.getOwnPropertyDescriptor(record, 'constructor')?.value).toBe('c2')
    const id = String(record.id)
    const read = call(api, 'GET /items/{id}', `/items/${id}`, { params: { id } })
    expect(read.status).toBe(200)
    const back = read.json as Record<string, unknown>
    expect(Object.getOwnPropertyDescriptor(back, '__proto__')?.value).toBe('own')
    expect(Object.getOwnPropertyDescriptor(back, 'constructor')?.value).toBe('c2')
    const getOp = api.operations.find((o) => o.id === 'GET /items/{id}') as CompiledOperation
    expect(getOp.success.check?.(read.json)).toBe(true)
    // A value of the wrong type under __proto__ is refused: the schema's property is checked.
    const wrong = JSON.parse('{"id":8,"name":"n","__proto__":5}')
    expect(call(api, 'POST /items', '/items', { body: wrong }).status).toBe(400)
  })
})
