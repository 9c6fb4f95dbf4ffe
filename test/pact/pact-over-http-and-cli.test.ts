import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import document from '../../openapi/petstore-sandbox.openapi.json' with { type: 'json' }
import { runPactCommand } from '../../src/cli/pact-command.js'
import type { Har } from '../../src/index.js'
import { checkAgainstOpenApi, type OpenApiDocument } from '../../src/pact/check-against-openapi.js'
import type { Pact } from '../../src/pact/pact-document.js'
import { createSandboxServer } from '../../src/server/index.js'

// Contract §21 over HTTP (GET /__sandbox/pact) and from a HAR (petstore-sandbox pact --from).
const app = createSandboxServer()
let origin = ''
beforeAll(async () => {
  origin = (await app.listen(0, '127.0.0.1')).url
})
afterAll(() => app.close())

const KEY = { authorization: 'Bearer sandbox-free' }
const pactUrl = (query: string) => `${origin}/__sandbox/pact${query}`

const run = async (args: string[], files: Record<string, string> = {}) => {
  let stdout = ''
  let stderr = ''
  const written: Record<string, string> = {}
  const status = await runPactCommand(args, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    readFile: async (path) => {
      const text = files[path]
      if (text === undefined) throw Object.assign(new Error('missing'), { code: 'ENOENT' })
      return text
    },
    writeFile: async (path, text) => {
      written[path] = text
    },
  })
  return { status, stdout, stderr, written }
}

describe('GET /__sandbox/pact', () => {
  it('answers the selected session’s journal as { pact, problems, skipped }', async () => {
    await fetch(`${origin}/v1/pets?limit=1&__session=pact-http`, { headers: KEY })
    await fetch(`${origin}/v1/pets?limit=1`, { headers: KEY })
    const response = await fetch(pactUrl('?consumer=web&provider=pets&__session=pact-http'))
    expect(response.status).toBe(200)
    const body = (await response.json()) as { pact: Pact; problems: unknown[]; skipped: unknown[] }
    expect(body.problems).toEqual([])
    expect(body.pact.interactions.map((i) => [i.description, i.request.query])).toEqual([
      ['listPets: 200', { limit: ['1'] }],
    ])
    expect(body.pact.metadata.pactSpecification.version).toBe('4.0')
  })

  it.each([
    ['', 'consumer', 'is required'],
    ['?consumer=web', 'provider', 'is required'],
    ['?consumer=&provider=p', 'consumer', 'must not be empty'],
    ['?consumer=a&consumer=b&provider=p', 'consumer', 'repeated'],
    [`?consumer=web&provider=${'x'.repeat(201)}`, 'provider', 'at most 200'],
    ['?consumer=a%00b&provider=p', 'consumer', 'control characters'],
  ])('answers 400 invalid_parameter naming the parameter for %s', async (query, field, words) => {
    const response = await fetch(pactUrl(query))
    expect(response.status).toBe(400)
    const body = (await response.json()) as { code: string; message: string }
    expect(body.code).toBe('invalid_parameter')
    expect(body.message).toContain(`"${field}"`)
    expect(body.message).toContain(words)
  })

  it('keeps the control API’s access rules: another site’s page is refused', async () => {
    const response = await fetch(pactUrl('?consumer=web&provider=pets'), {
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    })
    expect(response.status).toBe(403)
  })
})

describe('petstore-sandbox pact --from FILE.har', () => {
  it('writes the same pact from the server’s requests.har as GET /__sandbox/pact', async () => {
    await fetch(`${origin}/v1/pets/3?__session=pact-har`, { headers: KEY })
    await fetch(`${origin}/v1/pets?__session=pact-har&__scenario=unavailable`, { headers: KEY })
    const har = await (await fetch(`${origin}/__sandbox/requests.har?__session=pact-har`)).text()
    const live = (await (
      await fetch(pactUrl('?consumer=c&provider=p&__session=pact-har'))
    ).json()) as { pact: Pact }
    const { status, written, stderr } = await run(
      ['--from', 's.har', '--consumer', 'c', '--provider', 'p', '--out', 'pact.json'],
      { 's.har': har },
    )
    expect(status).toBe(0)
    expect(stderr).toContain('2 interactions written to pact.json.')
    expect(JSON.parse(written['pact.json'] ?? '')).toEqual(live.pact)
  })

  it('lists an answer the OpenAPI document refuses, leaves it out, and exits 1', async () => {
    const har: Har = {
      log: {
        version: '1.2',
        creator: { name: 'a browser', version: '1' },
        entries: [
          {
            startedDateTime: '2026-01-01T00:00:00.000Z',
            time: 1,
            request: {
              method: 'GET',
              url: 'https://api.example.test/v1/pets',
              httpVersion: 'HTTP/1.1',
              cookies: [],
              headers: [{ name: 'Authorization', value: 'Bearer real-secret-key' }],
              queryString: [],
              headersSize: -1,
              bodySize: 0,
            },
            response: {
              status: 200,
              statusText: 'OK',
              httpVersion: 'HTTP/1.1',
              cookies: [],
              headers: [{ name: 'Content-Type', value: 'application/json' }],
              content: {
                size: 1,
                mimeType: 'application/json',
                text: '[{"id":1,"name":"Rex","categoryId":1,"status":"sold","nickname":"R"}]',
              },
              redirectURL: '',
              headersSize: -1,
              bodySize: 1,
            },
            cache: {},
            timings: { blocked: -1, dns: -1, connect: -1, send: 0, wait: 1, receive: 0, ssl: -1 },
          } as never,
        ],
      },
    }
    const { status, stdout, stderr } = await run(['--from', 'b.har'], {
      'b.har': JSON.stringify(har),
    })
    expect(status).toBe(1)
    expect(JSON.parse(stdout).interactions).toEqual([])
    expect(stderr).toContain('refused  listPets: 200 (#1)')
    expect(stderr).toContain('response body: 0.nickname is not declared by the OpenAPI document')
    expect(stdout + stderr).not.toContain('real-secret-key')
  })

  it.each([
    [[], 'give the HAR file with --from'],
    [['--from', 'none.har'], 'no such file'],
    [['--from', 'x.har', '--consumer', ''], '--consumer: must not be empty'],
    [['--from', 'x.har', '--bogus'], "Unknown option '--bogus'"],
    [['--from', 'x.har'], 'not JSON'],
    [['--from', 'x.har', '--openapi', ''], '--openapi: give a file name'],
    [['--from', 'x.har', '--base-path', '/api'], '--base-path: it places the --openapi document'],
    [['--from', 'x.har', '--openapi', 'a.json', '--base-path', '/'], 'a non-root path such as /v1'],
    [
      ['--from', 'x.har', '--openapi', '/no/such/openapi.json'],
      'Failed to load the OpenAPI document',
    ],
  ])('exits 2 with one line saying why: %j', async (args, words) => {
    const { status, stderr } = await run(args, { 'x.har': '{nope' })
    expect(status).toBe(2)
    expect(stderr).toContain(words)
  })
})

describe('the OpenAPI pre-check', () => {
  const doc = document as unknown as OpenApiDocument
  const answer = { method: 'GET', path: '/v1/pets', contentType: 'application/json', hasBody: true }
  it('refuses a status the operation does not declare', () => {
    expect(
      checkAgainstOpenApi(doc, { ...answer, operationId: 'listPets', status: 418, json: {} }),
    ).toEqual(['status 418 is not declared for listPets by the OpenAPI document'])
  })
  it('refuses an Error code the status does not list, and a wrong type', () => {
    const body = { code: 'pet_not_found', message: 'x', status: '503' }
    expect(
      checkAgainstOpenApi(doc, { ...answer, operationId: 'listPets', status: 503, json: body }),
    ).toEqual([
      'response body: status must be integer, got string',
      'response body: code is "pet_not_found", not one of "service_unavailable", "session_limit_reached"',
      'response body: status is "503", not 503',
    ])
  })
  it('refuses a request no operation answers', () => {
    expect(
      checkAgainstOpenApi(doc, { ...answer, operationId: null, status: 200, json: [] }),
    ).toEqual(['no operation of the OpenAPI document answers GET /v1/pets'])
  })
  it('accepts a valid Error body with details', () => {
    const body = {
      code: 'invalid_parameter',
      message: 'x',
      status: 400,
      details: [{ field: 'limit', message: 'bad' }],
    }
    expect(
      checkAgainstOpenApi(doc, { ...answer, operationId: 'listPets', status: 400, json: body }),
    ).toEqual([])
  })
})
