import { describe, expect, it } from 'vitest'
import {
  byId,
  call,
  type Doc,
  doc,
  expectValidByDocument,
  json,
  open,
  ref,
} from './support/small-documents.js'

// Small documents shaped as real APIs publish them (Slack, 1Password, OpenAI, ListenNotes,
// TVmaze, httpbin, Nexmo, xkcd), each answer checked by a plain ajv (./support/small-documents.ts).
const idParam = (name: string, schema: Doc) => ({ name, in: 'path', required: true, schema })

describe('collection ids follow the id schema (1Password vaults: 26 lowercase characters)', () => {
  const vaults = doc(
    {
      '/vaults': {
        get: {
          operationId: 'listVaults',
          responses: { '200': json({ type: 'array', items: ref('Vault') }) },
        },
        post: {
          operationId: 'createVault',
          requestBody: {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['name'],
                  properties: { name: { type: 'string' } },
                },
              },
            },
          },
          responses: { '201': json(ref('Vault')) },
        },
      },
      '/vaults/{vaultUuid}': {
        get: {
          operationId: 'getVault',
          parameters: [idParam('vaultUuid', { type: 'string', pattern: '^[\\da-z]{26}$' })],
          responses: { '200': json(ref('Vault')), '404': json(ref('Error')) },
        },
      },
    },
    {
      Vault: {
        type: 'object',
        required: ['id', 'name'],
        properties: { id: { type: 'string', pattern: '^[\\da-z]{26}$' }, name: { type: 'string' } },
      },
      Error: { type: 'object' },
    },
  )

  it('lists valid, unique ids that fetch answers, and creates one more that fetch answers too', async () => {
    const api = await open(vaults)
    const list = call(api, 'listVaults')
    expectValidByDocument(vaults, '/vaults', 'get', list)
    const ids = (list.json as { id: string }[]).map((v) => v.id)
    expect(ids).toHaveLength(10)
    expect(new Set(ids).size).toBe(10)
    for (const id of ids) {
      expect(id).toMatch(/^[\da-z]{26}$/)
      const one = call(api, 'getVault', { params: { vaultUuid: id } })
      expect(one.status).toBe(200)
      expect(one.json).toEqual((list.json as { id: string }[]).find((v) => v.id === id))
    }
    const created = call(api, 'createVault', { body: { name: 'Work' } })
    expect(created.status).toBe(201)
    expectValidByDocument(vaults, '/vaults', 'post', created)
    const newId = (created.json as { id: string }).id
    expect(ids).not.toContain(newId)
    expect(created.headers.Location).toBe(`https://api.example.test/v1/vaults/${newId}`)
    expect(call(api, 'getVault', { params: { vaultUuid: newId } }).json).toEqual(created.json)
  })

  it('draws the same ids from the same seed, other ids from another', async () => {
    const ids = async (seed: number) =>
      (call(await open(vaults, seed), 'listVaults').json as { id: string }[]).map((v) => v.id)
    expect(await ids(1)).toEqual(await ids(1))
    expect(await ids(1)).not.toEqual(await ids(2))
  })
})

describe('generated strings follow pattern (Slack channel ids)', () => {
  it('answers channel ids that match ^[CGD][A-Z0-9]{8,}$', async () => {
    const slack = doc({
      '/conversations': {
        get: {
          operationId: 'conversationsList',
          responses: {
            '200': json({
              type: 'object',
              required: ['ok', 'channels'],
              properties: {
                ok: { type: 'boolean' },
                channels: {
                  type: 'array',
                  items: {
                    type: 'object',
                    required: ['id', 'name'],
                    properties: {
                      id: { type: 'string', pattern: '^[CGD][A-Z0-9]{8,}$' },
                      name: { type: 'string' },
                    },
                  },
                },
              },
            }),
          },
        },
      },
    })
    const api = await open(slack)
    const answer = call(api, 'conversationsList')
    expectValidByDocument(slack, '/conversations', 'get', answer)
    for (const channel of (answer.json as { channels: { id: string }[] }).channels)
      expect(channel.id).toMatch(/^[CGD][A-Z0-9]{8,}$/)
  })
})

describe('a string example is never spread into a record (Microcks /secrets)', () => {
  it('lists objects valid by the record schema', async () => {
    const secrets = doc(
      {
        '/secrets': {
          get: {
            operationId: 'listSecrets',
            responses: { '200': json({ type: 'array', items: ref('Secret') }) },
          },
        },
        '/secrets/{id}': {
          get: {
            operationId: 'getSecret',
            parameters: [idParam('id', { type: 'string' })],
            responses: { '200': json(ref('Secret')) },
          },
        },
      },
      {
        Secret: {
          type: 'object',
          required: ['id', 'name'],
          properties: {
            id: { type: 'string' },
            name: { type: 'string' },
            username: { type: 'string' },
          },
          example: '{\n  "id": "5be",\n  "name": "Gogs internal"\n}',
        },
      },
    )
    const api = await open(secrets)
    const list = call(api, 'listSecrets')
    expectValidByDocument(secrets, '/secrets', 'get', list)
    for (const record of list.json as Record<string, unknown>[]) {
      expect(record).not.toHaveProperty('0')
      expect(typeof record.name).toBe('string')
    }
  })
})

describe('a wrapped list and its item agree (OpenAI /files)', () => {
  const files = (withNotFound: boolean) =>
    doc(
      {
        '/files': {
          get: {
            operationId: 'listFiles',
            responses: {
              '200': json({
                type: 'object',
                required: ['object', 'data'],
                properties: {
                  object: { type: 'string', enum: ['list'] },
                  data: { type: 'array', items: ref('File') },
                },
              }),
            },
          },
        },
        '/files/{file_id}': {
          get: {
            operationId: 'retrieveFile',
            parameters: [idParam('file_id', { type: 'string' })],
            responses: {
              '200': json(ref('File')),
              ...(withNotFound ? { '404': json({ type: 'object' }) } : {}),
            },
          },
          delete: {
            operationId: 'deleteFile',
            parameters: [idParam('file_id', { type: 'string' })],
            responses: {
              '200': json({
                type: 'object',
                required: ['id', 'deleted'],
                properties: { id: { type: 'string' }, deleted: { type: 'boolean' } },
              }),
            },
          },
        },
      },
      {
        File: {
          type: 'object',
          required: ['id', 'object', 'bytes', 'filename'],
          properties: {
            id: { type: 'string', pattern: '^file-[A-Za-z0-9]{24}$' },
            object: { type: 'string', const: 'file' },
            bytes: { type: 'integer', minimum: 0 },
            filename: { type: 'string' },
          },
        },
      },
    )

  it('lists records inside `data` that fetch by id answers as listed', async () => {
    const document = files(true)
    const api = await open(document)
    expect(byId(api, 'listFiles').role).toBe('list')
    const list = call(api, 'listFiles')
    expectValidByDocument(document, '/files', 'get', list)
    const data = (list.json as { data: { id: string }[] }).data
    expect(data).toHaveLength(10)
    for (const file of data) {
      const one = call(api, 'retrieveFile', { params: { file_id: file.id } })
      expect(one.status).toBe(200)
      expect(one.json).toEqual(file)
    }
    expect(call(api, 'retrieveFile', { params: { file_id: 'file-nope' } }).status).toBe(404)
  })

  it('never answers an undeclared 404: an unknown id gets a valid stateless record; a delete its declared 200', async () => {
    const document = files(false)
    const api = await open(document)
    const unknown = call(api, 'retrieveFile', {
      params: { file_id: 'file-AAAAAAAAAAAAAAAAAAAAAAAA' },
    })
    expect(unknown.status).toBe(200)
    expectValidByDocument(document, '/files/{file_id}', 'get', unknown)
    expect((unknown.json as { id: string }).id).toBe('file-AAAAAAAAAAAAAAAAAAAAAAAA')
    const id = (call(api, 'listFiles').json as { data: { id: string }[] }).data[0]?.id ?? ''
    const deleted = call(api, 'deleteFile', { params: { file_id: id } })
    expect(deleted.status).toBe(200)
    expect(byId(api, 'deleteFile').role).toBe('delete')
    expect(api.sandboxStatuses(byId(api, 'retrieveFile'))).not.toContain(404)
  })
})

describe('a POST that is not a create answers statelessly (ListenNotes batch fetch, a ping)', () => {
  it('answers the declared 200 from the schema, no Location, the records left alone', async () => {
    const podcasts = doc(
      {
        '/podcasts': {
          post: {
            operationId: 'getPodcastsInBatch',
            requestBody: {
              content: { 'application/x-www-form-urlencoded': { schema: { type: 'object' } } },
            },
            responses: {
              '200': json({
                type: 'object',
                required: ['podcasts'],
                properties: { podcasts: { type: 'array', items: ref('Podcast') } },
              }),
            },
          },
        },
        '/podcasts/{id}': {
          get: {
            operationId: 'getPodcastById',
            parameters: [idParam('id', { type: 'string' })],
            responses: { '200': json(ref('Podcast')) },
          },
        },
        '/ping': { post: { operationId: 'ping', responses: { '200': { description: 'pong' } } } },
      },
      {
        Podcast: {
          type: 'object',
          required: ['id', 'title'],
          properties: {
            id: { type: 'string', pattern: '^[0-9a-f]{32}$' },
            title: { type: 'string' },
          },
        },
      },
    )
    const api = await open(podcasts)
    expect(byId(api, 'getPodcastsInBatch').role).toBe('static')
    const batch = call(api, 'getPodcastsInBatch')
    expect(batch.status).toBe(200)
    expect(batch.headers.Location).toBeUndefined()
    expectValidByDocument(podcasts, '/podcasts', 'post', batch)
    const ping = call(api, 'ping')
    expect(ping.status).toBe(200)
    expect(ping.body).toBeNull()
  })
})

describe("the document's own success status (TVmaze, Pendo, httpbin)", () => {
  it('answers DELETE 200 and PUT 200 as declared, and a redirect-only operation 302 with its Location', async () => {
    const shows = doc(
      {
        '/shows': {
          get: {
            operationId: 'listShows',
            responses: { '200': json({ type: 'array', items: ref('Show') }) },
          },
        },
        '/shows/{id}': {
          get: {
            operationId: 'getShow',
            parameters: [idParam('id', { type: 'integer' })],
            responses: { '200': json(ref('Show')) },
          },
          put: {
            operationId: 'putShow',
            parameters: [idParam('id', { type: 'integer' })],
            requestBody: {
              content: {
                'application/json': {
                  schema: { type: 'object', properties: { name: { type: 'string' } } },
                },
              },
            },
            responses: { '200': { description: 'saved, no body' } },
          },
          delete: {
            operationId: 'deleteShow',
            parameters: [idParam('id', { type: 'integer' })],
            responses: { '200': { description: 'gone' } },
          },
        },
        '/redirect-to': {
          get: {
            operationId: 'redirectTo',
            responses: {
              '302': {
                description: 'A redirection.',
                headers: {
                  Location: { required: true, schema: { type: 'string', format: 'uri' } },
                },
              },
            },
          },
        },
      },
      {
        Show: {
          type: 'object',
          required: ['id', 'name'],
          properties: { id: { type: 'integer' }, name: { type: 'string' } },
        },
      },
    )
    const api = await open(shows)
    expect(
      call(api, 'putShow', { params: { id: '1' }, body: { name: 'Under the Dome' } }).status,
    ).toBe(200)
    expect(call(api, 'deleteShow', { params: { id: '2' } }).status).toBe(200)
    const redirect = call(api, 'redirectTo')
    expect(redirect.status).toBe(302)
    expect(redirect.headers.Location).toMatch(/^https:\/\/example\.test\//)
    expect(api.sandboxStatuses(byId(api, 'redirectTo'))).toEqual([302])
  })
})

describe("list items follow the list's own schema (Nexmo members)", () => {
  it('seeds records valid as listed items and as fetched records', async () => {
    const members = doc(
      {
        '/members': {
          get: {
            operationId: 'getMembers',
            responses: {
              '200': json({
                type: 'array',
                items: {
                  type: 'object',
                  required: ['id', 'user_id', 'state'],
                  properties: {
                    id: { type: 'string' },
                    user_id: { type: 'string', pattern: '^USR-[0-9a-f]{8}$' },
                    state: { type: 'string', enum: ['JOINED', 'INVITED', 'LEFT'] },
                  },
                },
              }),
            },
          },
        },
        '/members/{id}': {
          get: {
            operationId: 'getMember',
            parameters: [idParam('id', { type: 'string' })],
            responses: { '200': json(ref('Member')) },
          },
        },
      },
      {
        Member: {
          type: 'object',
          required: ['id'],
          properties: {
            id: { type: 'string' },
            user_id: { type: 'string' },
            state: { type: 'string' },
          },
        },
      },
    )
    const api = await open(members)
    const list = call(api, 'getMembers')
    expectValidByDocument(members, '/members', 'get', list)
    const first = (list.json as { id: string }[])[0]
    expectValidByDocument(
      members,
      '/members/{id}',
      'get',
      call(api, 'getMember', { params: { id: first?.id ?? '' } }),
    )
  })
})

describe('a list shows what its own item schema declares (Airflow connections)', () => {
  it('leaves out of the list the fields only the fetched record has (a password)', async () => {
    const connections = doc(
      {
        '/connections': {
          get: {
            operationId: 'get_connections',
            responses: {
              '200': json({
                type: 'object',
                properties: {
                  connections: { type: 'array', items: ref('ConnectionCollectionItem') },
                  total_entries: { type: 'integer' },
                },
              }),
            },
          },
        },
        '/connections/{connection_id}': {
          get: {
            operationId: 'get_connection',
            parameters: [idParam('connection_id', { type: 'string' })],
            responses: { '200': json(ref('Connection')) },
          },
        },
      },
      {
        ConnectionCollectionItem: {
          type: 'object',
          properties: {
            connection_id: { type: 'string' },
            conn_type: { type: 'string' },
            host: { type: 'string' },
          },
        },
        Connection: {
          allOf: [
            ref('ConnectionCollectionItem'),
            {
              type: 'object',
              properties: { password: { type: 'string' }, extra: { type: 'string' } },
            },
          ],
        },
      },
    )
    const api = await open(connections)
    const list = call(api, 'get_connections')
    expectValidByDocument(connections, '/connections', 'get', list)
    const listed = (list.json as { connections: Record<string, unknown>[] }).connections
    expect(listed.length).toBeGreaterThan(0)
    for (const item of listed) {
      expect(item).not.toHaveProperty('password')
      expect(item).not.toHaveProperty('extra')
    }
    // The fetched record has them, and agrees with the listed item on every listed field.
    const first = listed[0] ?? {}
    const fetched = call(api, 'get_connection', {
      params: { connection_id: String(first.connection_id) },
    })
    expectValidByDocument(connections, '/connections/{connection_id}', 'get', fetched)
    expect(fetched.json).toHaveProperty('password')
    expect(fetched.json).toMatchObject(first)
  })
})

describe('a schema the validator cannot compile (Codat: `type` written as an object)', () => {
  it('starts, names it in a note, and answers the other operations', async () => {
    const broken = doc(
      {
        '/companies': {
          get: {
            operationId: 'listCompanies',
            responses: { '200': json({ type: 'array', items: ref('Company') }) },
          },
        },
        '/companies/{id}': {
          get: {
            operationId: 'getCompany',
            parameters: [idParam('id', { type: 'string' })],
            responses: { '200': json(ref('Company')) },
          },
        },
        '/status': {
          get: {
            operationId: 'status',
            responses: { '200': json({ type: 'object', properties: { up: { type: 'boolean' } } }) },
          },
        },
      },
      {
        Company: {
          type: 'object',
          properties: { id: { type: 'string' }, name: { type: { description: 'not a type' } } },
        },
      },
    )
    const api = await open(broken)
    expect(api.notes.join('\n')).toMatch(
      /cannot be answered: a schema the validator cannot compile \(\/companies/,
    )
    const status = call(api, 'status')
    expect(status.status).toBe(200)
    expectValidByDocument(broken, '/status', 'get', status)
    // The broken collection's own requests fail on their own (the server answers them 500).
    expect(() => call(api, 'getCompany', { params: { id: '1' } })).toThrow(/Failed to compile/)
  })
})

describe('non-JSON media (xkcd, Wolfram, a text status page)', () => {
  it('answers with a declared Content-Type and a body valid for it', async () => {
    const media = doc({
      '/info.0.json': {
        get: {
          operationId: 'comic',
          responses: {
            '200': {
              description: 'ok',
              content: {
                '*/*': {
                  schema: {
                    type: 'object',
                    required: ['num'],
                    properties: { num: { type: 'integer' } },
                  },
                },
              },
            },
          },
        },
      },
      '/v1/result': {
        get: {
          operationId: 'result',
          responses: {
            '200': {
              description: 'ok',
              content: { 'text/plain': { schema: { type: 'string', pattern: '^[0-9]+ km$' } } },
            },
          },
        },
      },
      '/status': {
        get: {
          operationId: 'status',
          responses: {
            '200': { description: 'ok', content: { 'text/html': { schema: { type: 'string' } } } },
          },
        },
      },
      '/motd': {
        get: {
          operationId: 'motd',
          responses: {
            '200': { description: 'ok', content: { 'text/plain': { example: 'Be kind.' } } },
          },
        },
      },
    })
    const api = await open(media)
    const comic = call(api, 'comic')
    expect(comic.headers['Content-Type']).toBe('application/json')
    expect(typeof (comic.json as { num: number }).num).toBe('number')
    const result = call(api, 'result')
    expect(result.headers['Content-Type']).toBe('text/plain')
    expect(result.body).toMatch(/^[0-9]+ km$/)
    const status = call(api, 'status')
    expect(status.headers['Content-Type']).toBe('text/html')
    expect(status.body).toMatch(/^<!doctype html>/)
    expect(call(api, 'motd').body).toBe('Be kind.')
  })
})

describe('an example that breaks its own schema is not served (ListenNotes: 3 oneOf branches match)', () => {
  it('answers a generated value valid by the schema, and says so in one note', async () => {
    const search = doc({
      '/search': {
        get: {
          operationId: 'search',
          responses: {
            '200': json(
              {
                oneOf: [
                  { type: 'object', properties: { count: { type: 'integer' } } },
                  { type: 'object', properties: { total: { type: 'integer' } } },
                  { type: 'object', properties: { next_offset: { type: 'integer' } } },
                ],
              },
              { example: { took: 0.1 } },
            ),
          },
        },
      },
    })
    const api = await open(search)
    const answer = call(api, 'search')
    expect(answer.json).not.toEqual({ took: 0.1 })
    expectValidByDocument(search, '/search', 'get', answer)
    expect(api.notes).toHaveLength(1)
    expect(api.notes[0]).toMatch(/1 example that is not valid by its own schema \(search 200\)/)
  })
})

describe("a schema's default (issue 37 item 6)", () => {
  it('gives an order created without status the document’s default: placed', async () => {
    const api = await open('examples/openapi/petstore-extras.yaml', 1)
    for (let i = 0; i < 5; i += 1) {
      const created = call(api, 'placeOrder', { body: { petId: 1, quantity: 2 } })
      expect(created.status).toBe(201)
      expect((created.json as { status: string }).status).toBe('placed')
    }
  })
})

describe('the details of a 400 are bounded (count and size)', () => {
  it('answers a 64 KB body against an enum of 1,000 values with a small 400', async () => {
    const values = Array.from({ length: 1000 }, (_, i) => `value-${String(i).padStart(4, '0')}`)
    const tags = doc({
      '/tags': {
        post: {
          operationId: 'setTags',
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { tags: { type: 'array', items: { enum: values } } },
                },
              },
            },
          },
          responses: { '200': { description: 'ok' } },
        },
      },
    })
    const api = await open(tags)
    const body = { tags: Array.from({ length: 6000 }, (_, i) => `x${i}`) }
    expect(JSON.stringify(body).length).toBeLessThan(65_536)
    const answer = call(api, 'setTags', { body })
    expect(answer.status).toBe(400)
    expect(String(answer.body).length).toBeLessThan(16_384)
    const details = (answer.json as { details: { field: string; message: string }[] }).details
    expect(details).toHaveLength(20)
    expect(details[0]?.message).toMatch(/must be one of "value-0000", .* \(and 990 more\)$/)
  })
})

describe('records that two schemas describe differently, and answers that are not the record (Adafruit, GitHub)', () => {
  const document = doc(
    {
      '/gists': {
        get: {
          operationId: 'listGists',
          responses: { '200': json({ type: 'array', items: ref('BaseGist') }) },
        },
      },
      '/gists/{gist_id}': {
        get: {
          operationId: 'getGist',
          parameters: [idParam('gist_id', { type: 'string' })],
          responses: { '200': json(ref('GistSimple')) },
        },
        delete: {
          operationId: 'destroyGist',
          parameters: [idParam('gist_id', { type: 'string' })],
          responses: { '200': json({ type: 'string' }) },
        },
      },
      '/gitignore/templates': {
        get: {
          operationId: 'getAllTemplates',
          responses: { '200': json({ type: 'array', items: { type: 'string' } }) },
        },
      },
      '/gitignore/templates/{name}': {
        get: {
          operationId: 'getTemplate',
          parameters: [idParam('name', { type: 'string' })],
          responses: {
            '200': json({
              type: 'object',
              required: ['name'],
              properties: { name: { type: 'string' }, source: { type: 'string' } },
            }),
          },
        },
      },
    },
    {
      BaseGist: {
        type: 'object',
        required: ['id', 'user'],
        properties: {
          id: { type: 'string' },
          user: { type: ['object', 'null'], properties: { login: { type: 'string' } } },
        },
      },
      GistSimple: {
        type: 'object',
        required: ['id'],
        properties: { id: { type: 'string' }, user: { type: ['string', 'null'] } },
      },
    },
  )

  it('makes a field both schemas allow only as null null, answers a DELETE declared as a string with a string, and lists no records where the list is of names', async () => {
    const api = await open(document)
    const list = call(api, 'listGists')
    expectValidByDocument(document, '/gists', 'get', list)
    const id = (list.json as { id: string }[])[0]?.id ?? ''
    expectValidByDocument(
      document,
      '/gists/{gist_id}',
      'get',
      call(api, 'getGist', { params: { gist_id: id } }),
    )
    const deleted = call(api, 'destroyGist', { params: { gist_id: id } })
    expect(deleted.status).toBe(200)
    expect(typeof deleted.json).toBe('string')
    expect(byId(api, 'getAllTemplates').role).toBe('static')
    expectValidByDocument(document, '/gitignore/templates', 'get', call(api, 'getAllTemplates'))
  })
})

describe("request bodies other than objects, and errors in the document's own shape (Adafruit, Pendo, GitHub, Netlify)", () => {
  const document = doc(
    {
      '/data/batch': {
        post: {
          operationId: 'batchCreateData',
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'array',
                  items: { type: 'object', properties: { value: { type: 'string' } } },
                },
              },
            },
          },
          responses: {
            '200': json({ type: 'array', items: { type: 'object' } }),
            '400': json(ref('BasicError')),
          },
        },
      },
      '/repos': {
        get: {
          operationId: 'listRepos',
          responses: { '200': json({ type: 'array', items: ref('Repo') }) },
        },
      },
      '/repos/{repo_id}': {
        get: {
          operationId: 'getRepo',
          parameters: [idParam('repo_id', { type: 'integer' })],
          responses: { '200': json(ref('Repo')), '404': json(ref('BasicError')) },
        },
      },
    },
    {
      Repo: {
        type: 'object',
        required: ['id'],
        properties: { id: { type: 'integer' }, name: { type: 'string' } },
      },
      BasicError: {
        type: 'object',
        required: ['message', 'documentation_url'],
        properties: {
          message: { type: 'string' },
          documentation_url: { type: 'string' },
          status: { type: 'string' },
        },
      },
    },
  )

  it('takes an array body the schema allows, and answers 400 and 404 in the shape the document declares', async () => {
    const api = await open(document)
    expect(call(api, 'batchCreateData', { body: [{ value: '1' }, { value: '2' }] }).status).toBe(
      200,
    )
    const refused = call(api, 'batchCreateData', { body: [{ value: 3 }] })
    expect(refused.status).toBe(400)
    expectValidByDocument(document, '/data/batch', 'post', refused)
    expect((refused.json as { message: string }).message).toMatch(
      /^The request body is invalid: 0\.value must be string/,
    )
    const missing = call(api, 'getRepo', { params: { repo_id: '999' } })
    expect(missing.status).toBe(404)
    expectValidByDocument(document, '/repos/{repo_id}', 'get', missing)
    expect((missing.json as { message: string }).message).toBe(
      'No record of /repos has the id "999".',
    )
  })
})

describe('a request valid by the document is not refused for what the record schema says otherwise (Mailchimp, VTEX)', () => {
  it('draws a field the record describes otherwise, and ignores a declared Content-Type header parameter', async () => {
    const document = doc(
      {
        '/automations': {
          get: {
            operationId: 'listAutomations',
            responses: { '200': json({ type: 'array', items: ref('Automation') }) },
          },
          post: {
            operationId: 'createAutomation',
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['workflow_type'],
                    properties: {
                      workflow_type: { type: 'string', enum: ['abandonedCart', 'welcomeSeries'] },
                    },
                  },
                },
              },
            },
            responses: { '201': json(ref('Automation')) },
          },
        },
        '/automations/{id}': {
          get: {
            operationId: 'getAutomation',
            parameters: [
              idParam('id', { type: 'string' }),
              { name: 'Content-Type', in: 'header', required: true, schema: { type: 'string' } },
            ],
            responses: { '200': json(ref('Automation')) },
          },
        },
      },
      {
        Automation: {
          type: 'object',
          required: ['id', 'workflow_type'],
          properties: {
            id: { type: 'string' },
            workflow_type: { type: 'string', enum: ['abandonedBrowse', 'abandonedCart'] },
          },
        },
      },
    )
    const api = await open(document)
    const kept = call(api, 'createAutomation', { body: { workflow_type: 'abandonedCart' } })
    expect(kept.status).toBe(201)
    expect((kept.json as { workflow_type: string }).workflow_type).toBe('abandonedCart')
    const drawn = call(api, 'createAutomation', { body: { workflow_type: 'welcomeSeries' } })
    expect(drawn.status).toBe(201)
    expectValidByDocument(document, '/automations', 'post', drawn)
    const id = (drawn.json as { id: string }).id
    expect(call(api, 'getAutomation', { params: { id } }).json).toEqual(drawn.json)
  })
})

describe('a create whose answer is not the record carries the record (Twitter, Adyen, Microcks)', () => {
  it('puts the record in the wrapping property, or its fields where the answer has them; a body that is not an object gives no fields', async () => {
    const document = doc(
      {
        '/lists': {
          post: {
            operationId: 'listIdCreate',
            requestBody: {
              content: {
                'application/json': {
                  schema: { type: 'object', properties: { name: { type: 'string' } } },
                },
              },
            },
            responses: {
              '201': json({
                type: 'object',
                properties: {
                  data: {
                    type: 'object',
                    required: ['id', 'name'],
                    properties: { id: { type: 'string' }, name: { type: 'string' } },
                  },
                },
              }),
            },
          },
        },
        '/lists/{id}': {
          get: {
            operationId: 'listIdGet',
            parameters: [idParam('id', { type: 'string' })],
            responses: { '200': json(ref('List')) },
          },
        },
        '/sessions': {
          post: {
            operationId: 'sessions',
            requestBody: {
              required: true,
              content: { 'application/json': { schema: { type: 'string' } } },
            },
            responses: {
              '201': json({
                type: 'object',
                required: ['id', 'expiresAt'],
                properties: {
                  id: { type: 'string' },
                  expiresAt: { type: 'string', format: 'date-time' },
                  amount: { type: 'integer' },
                },
              }),
            },
          },
        },
        '/sessions/{sessionId}': {
          get: {
            operationId: 'getSession',
            parameters: [idParam('sessionId', { type: 'string' })],
            responses: {
              '200': json({
                type: 'object',
                required: ['id', 'status'],
                properties: { id: { type: 'string' }, status: { enum: ['active', 'completed'] } },
              }),
            },
          },
        },
      },
      {
        List: {
          type: 'object',
          required: ['id', 'name'],
          properties: { id: { type: 'string' }, name: { type: 'string' } },
        },
      },
    )
    const api = await open(document)
    const list = call(api, 'listIdCreate', { body: { name: 'Reading' } })
    expect(list.status).toBe(201)
    const created = (list.json as { data: { id: string; name: string } }).data
    expect(created.name).toBe('Reading')
    expect(call(api, 'listIdGet', { params: { id: created.id } }).json).toEqual(created)
    const session = call(api, 'sessions', { body: 'a text body' })
    expect(session.status).toBe(201)
    expectValidByDocument(document, '/sessions', 'post', session)
    const id = (session.json as { id: string }).id
    const read = call(api, 'getSession', { params: { sessionId: id } })
    expect(read.status).toBe(200)
    expect((read.json as { id: string }).id).toBe(id)
  })
})

describe('a created record reads back as created when both answers wrap it (Twitter lists)', () => {
  const errors = {
    type: 'array',
    minItems: 1,
    items: {
      type: 'object',
      required: ['title'],
      properties: { title: { type: 'string' } },
    },
  }
  const lists = doc(
    {
      '/lists': {
        post: {
          operationId: 'listIdCreate',
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['name'],
                  properties: { name: { type: 'string', minLength: 1, maxLength: 25 } },
                },
              },
            },
          },
          responses: {
            '200': json({
              type: 'object',
              properties: {
                data: {
                  type: 'object',
                  required: ['id', 'name'],
                  properties: { id: ref('ListId'), name: { type: 'string' } },
                },
                errors,
              },
            }),
          },
        },
      },
      '/lists/{id}': {
        get: {
          operationId: 'listIdGet',
          parameters: [idParam('id', ref('ListId'))],
          responses: {
            '200': json({
              type: 'object',
              properties: {
                data: ref('List'),
                errors,
                includes: {
                  type: 'object',
                  properties: { users: { type: 'array', items: { type: 'object' } } },
                },
              },
            }),
          },
        },
      },
    },
    {
      ListId: { type: 'string', pattern: '^[0-9]{1,19}$' },
      List: {
        type: 'object',
        required: ['id', 'name'],
        properties: {
          id: ref('ListId'),
          name: { type: 'string' },
          private: { type: 'boolean' },
          follower_count: { type: 'integer' },
        },
      },
    },
  )

  it('answers the create and the fetch with the same `{ data }`, no optional fields drawn beside it', async () => {
    const api = await open(lists)
    const created = call(api, 'listIdCreate', { body: { name: 'Birds' } })
    expectValidByDocument(lists, '/lists', 'post', created)
    const body = created.json as { data: { id: string; name: string } }
    expect(Object.keys(body)).toEqual(['data'])
    expect(body.data.name).toBe('Birds')
    const read = call(api, 'listIdGet', { params: { id: body.data.id } })
    expectValidByDocument(lists, '/lists/{id}', 'get', read)
    expect(read.status).toBe(200)
    expect(read.json).toEqual(created.json)
  })
})

describe("a create whose answer and the fetch's describe one record differently (Adyen sessions)", () => {
  const sessions = doc(
    {
      '/sessions': {
        post: {
          operationId: 'postSessions',
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['amount', 'reference'],
                  properties: { amount: { type: 'integer' }, reference: { type: 'string' } },
                },
              },
            },
          },
          responses: { '201': json(ref('Session')) },
        },
      },
      '/sessions/{sessionId}': {
        get: {
          operationId: 'getSessionResult',
          parameters: [idParam('sessionId', { type: 'string' })],
          responses: {
            '200': json({
              type: 'object',
              properties: {
                id: { type: 'string' },
                status: { type: 'string', enum: ['active', 'completed'] },
              },
            }),
          },
        },
      },
    },
    {
      Session: {
        type: 'object',
        required: ['id', 'amount', 'reference', 'expiresAt'],
        properties: {
          id: { type: 'string' },
          amount: { type: 'integer' },
          reference: { type: 'string' },
          expiresAt: { type: 'string', format: 'date-time' },
        },
      },
    },
  )

  it('answers the create with a record valid by both, and the fetch reads it back as created', async () => {
    const api = await open(sessions)
    expect(byId(api, 'postSessions').role).toBe('create')
    const created = call(api, 'postSessions', { body: { amount: 1000, reference: 'order-7' } })
    expect(created.status).toBe(201)
    expectValidByDocument(sessions, '/sessions', 'post', created)
    const record = created.json as { id: string; amount: number; reference: string }
    expect(record).toMatchObject({ amount: 1000, reference: 'order-7' })
    const read = call(api, 'getSessionResult', { params: { sessionId: record.id } })
    expect(read.status).toBe(200)
    expectValidByDocument(sessions, '/sessions/{sessionId}', 'get', read)
    expect(read.json).toEqual(created.json)
  })
})
