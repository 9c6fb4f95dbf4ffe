import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { prepareForTryIt } from '../../src/server/docs/app/prepare-for-try-it.js'
import { tryItHeaders } from '../../src/server/docs/app/settings.js'

// The API reference page's own logic, apart from the browser: where try-it sends, and what.
const DOCUMENT = JSON.parse(
  readFileSync(new URL('../../openapi/petstore-sandbox.openapi.json', import.meta.url), 'utf8'),
) as Record<string, unknown>
/** The value at a path of keys in parsed JSON (undefined when a step is missing). */
const at = (value: unknown, ...path: (string | number)[]): unknown =>
  path.reduce<unknown>(
    (node, key) =>
      typeof node === 'object' && node !== null
        ? (node as Record<string | number, unknown>)[key]
        : undefined,
    value,
  )

describe('the document the page renders', () => {
  const prepared = prepareForTryIt(DOCUMENT, 'http://localhost:5123', '/api/v1/')

  it("sends the API's operations to the page's origin and the server's base path", () => {
    expect(at(prepared, 'servers')).toEqual([
      { url: 'http://localhost:5123/api/v1', description: 'This sandbox server' },
    ])
  })

  it("keeps the control API's paths on the page's origin", () => {
    expect(at(prepared, 'paths', '/__sandbox/reset', 'servers', 0, 'url')).toBe(
      'http://localhost:5123',
    )
    expect(at(prepared, 'paths', '/__sandbox/docs', 'servers', 0, 'url')).toBe(
      'http://localhost:5123',
    )
  })

  it("drops the selectors' examples, which Swagger UI would send as values, and says why", () => {
    const parameters = at(prepared, 'components', 'parameters')
    for (const name of ['Scenario', 'Delay', 'ScenarioHeader', 'SessionFlag', 'SessionHeader']) {
      expect(at(parameters, name, 'example'), name).toBeUndefined()
      expect(at(parameters, name, 'description'), name).toContain('try-it bar')
    }
    // The API's optional parameters lose theirs too (a `cursor` example sent as a value was a
    // 400 on every try-it), keeping their description; the original document is unchanged.
    for (const name of ['Limit', 'Status', 'Cursor']) {
      expect(at(parameters, name, 'example'), name).toBeUndefined()
      expect(at(parameters, name, 'description'), name).toBe(
        at(DOCUMENT, 'components', 'parameters', name, 'description'),
      )
    }
    expect(at(DOCUMENT, 'components', 'parameters', 'Cursor', 'example')).toBeDefined()
    expect(at(DOCUMENT, 'components', 'parameters', 'Scenario', 'example')).toBe('rate-limited')
    expect(at(DOCUMENT, 'servers', 0, 'url')).toBe('http://127.0.0.1:4010/v1')
  })

  it('drops them from inline parameters too, and leaves odd documents alone', () => {
    const odd = prepareForTryIt(
      {
        paths: {
          '/x': {
            parameters: [{ name: '__flag', in: 'query', example: 'a' }, 'junk'],
            get: { parameters: [{ name: 'X-Sandbox-Other', in: 'header', example: 'b' }] },
            servers: 'not a list',
          },
          '/y': null,
        },
      },
      'http://h',
      '/v1',
    )
    expect(at(odd, 'paths', '/x', 'parameters', 0)).not.toHaveProperty('example')
    expect(at(odd, 'paths', '/x', 'parameters', 1)).toBe('junk')
    expect(at(odd, 'paths', '/x', 'get', 'parameters', 0)).not.toHaveProperty('example')
    expect(at(odd, 'paths', '/x', 'servers')).toBe('not a list')
    expect(at(odd, 'paths')).not.toHaveProperty('/y')
  })
})

describe('the headers try-it adds', () => {
  const chosen = { key: 'sandbox-pro', scenario: 'empty', session: 'team-ü' }

  it('sends the key, scenario and session on requests below the base path', () => {
    expect(tryItHeaders(chosen, '/v1', '/v1/pets', 'admin')).toEqual({
      Authorization: 'Bearer sandbox-pro',
      'X-Sandbox-Scenario': 'empty',
      'X-Sandbox-Session': 'team-ü',
    })
    expect(tryItHeaders(chosen, '/v1/', '/v1', null)).toHaveProperty('Authorization')
  })

  it('sends nothing the bar leaves empty', () => {
    expect(tryItHeaders({ key: '', scenario: '', session: '' }, '/v1', '/v1/pets', null)).toEqual(
      {},
    )
  })

  it('sends the admin token and the session, never the API key, to the control API', () => {
    expect(tryItHeaders(chosen, '/v1', '/__sandbox/keys', 'admin')).toEqual({
      Authorization: 'Bearer admin',
      'X-Sandbox-Session': 'team-ü',
    })
    expect(tryItHeaders(chosen, '/v1', '/__sandbox/keys', null)).toEqual({
      'X-Sandbox-Session': 'team-ü',
    })
  })

  it('adds nothing to other paths, nor to a path that only starts like the base path', () => {
    expect(tryItHeaders(chosen, '/v1', '/v10/pets', 'admin')).toEqual({})
    expect(tryItHeaders(chosen, '/v1', '/__sandboxx', 'admin')).toEqual({})
    expect(tryItHeaders(chosen, '/v1', '/', 'admin')).toEqual({})
  })
})
