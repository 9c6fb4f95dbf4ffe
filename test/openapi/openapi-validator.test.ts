import { describe, expect, it } from 'vitest'
import type { WireResponse } from '../conformance/parts/target.js'
import { checkResponseAgainstOpenApi } from '../support/openapi-validator.js'

const JSON_TYPE = { 'content-type': 'application/json' }
const RATE_LIMIT = {
  'x-ratelimit-limit': '60',
  'x-ratelimit-remaining': '59',
  'x-ratelimit-reset': '1767225660',
}
const DEPRECATION = {
  deprecation: '@1767225600',
  sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  link: '<https://api.example.test/v1/pets>; rel="successor-version"',
}
const API = { ...JSON_TYPE, ...RATE_LIMIT }
const PET = { id: 1, name: 'Biscuit', categoryId: 2, status: 'available' }

const error = (code: string, status: number, extra: object = {}): string =>
  JSON.stringify({ code, message: 'Something is wrong.', status, ...extra })

// Every answer carries its Request-Id (contract §22); the cases below leave it out of their headers.
const REQUEST_ID = { 'request-id': 'req_5f0c8e2a9b1d4c7e3a6f0b28' }

const check = (
  method: string,
  path: string,
  response: Partial<WireResponse> & { status: number },
): string[] =>
  checkResponseAgainstOpenApi({
    request: { method, path },
    response: { body: '', ...response, headers: { ...REQUEST_ID, ...response.headers } },
  })

describe('checkResponseAgainstOpenApi', () => {
  describe('accepts responses the document describes', () => {
    it.each<[string, string, string, WireResponse]>([
      [
        'a page of pets with a next link',
        'GET',
        '/pets?limit=1&status=available',
        {
          status: 200,
          headers: {
            ...API,
            'x-total-count': '25',
            link: '<https://api.example.test/v1/pets?limit=1&cursor=YWZ0ZXI6MQ>; rel="next"',
          },
          body: JSON.stringify([PET]),
        },
      ],
      [
        'the last page, without a link',
        'GET',
        '/pets',
        { status: 200, headers: { ...API, 'x-total-count': '0' }, body: '[]' },
      ],
      [
        'a created pet',
        'POST',
        '/pets',
        {
          status: 201,
          headers: { ...API, location: 'https://api.example.test/v1/pets/26' },
          body: JSON.stringify({ ...PET, id: 26 }),
        },
      ],
      [
        'a pet with the deprecation headers',
        'GET',
        '/pets/1',
        { status: 200, headers: { ...API, ...DEPRECATION }, body: JSON.stringify(PET) },
      ],
      [
        'the removed operation',
        'GET',
        '/pets/1',
        { status: 410, headers: { ...API, ...DEPRECATION }, body: error('operation_removed', 410) },
      ],
      [
        'a 401 with its challenge',
        'GET',
        '/pets',
        {
          status: 401,
          headers: { ...API, 'www-authenticate': 'Bearer realm="petstore"' },
          body: error('missing_api_key', 401),
        },
      ],
      [
        'a 429 with Retry-After',
        'GET',
        '/pets/1',
        {
          status: 429,
          headers: { ...API, ...DEPRECATION, 'retry-after': '1' },
          body: error('api_key_banned', 429),
        },
      ],
      [
        'a 400 with details',
        'POST',
        '/pets',
        {
          status: 400,
          headers: API,
          body: error('validation_failed', 400, { details: [{ field: 'name', message: 'x' }] }),
        },
      ],
      [
        'a 404 on a path the API lacks',
        'GET',
        '/owners?x=1',
        { status: 404, headers: API, body: error('route_not_found', 404) },
      ],
      [
        'a 401 on a path the API lacks (authentication comes first)',
        'GET',
        '/owners',
        { status: 401, headers: API, body: error('invalid_api_key', 401) },
      ],
      [
        'a 405 with Allow',
        'DELETE',
        '/pets',
        {
          status: 405,
          headers: { ...API, allow: 'GET, POST' },
          body: error('method_not_allowed', 405),
        },
      ],
      [
        'a 405 on the deprecated path',
        'PUT',
        '/pets/1',
        {
          status: 405,
          headers: { ...API, ...DEPRECATION, allow: 'GET' },
          body: error('method_not_allowed', 405),
        },
      ],
      [
        'the control API clock',
        'GET',
        '/__sandbox/clock',
        {
          status: 200,
          headers: JSON_TYPE,
          body: '{"now":"2030-12-05T00:00:00.000Z","frozen":true}',
        },
      ],
      [
        'a control API 404 for an unknown key',
        'DELETE',
        '/__sandbox/keys/nope',
        { status: 404, headers: JSON_TYPE, body: error('key_not_found', 404) },
      ],
      ['a control API 204', 'POST', '/__sandbox/reset', { status: 204, headers: {}, body: '' }],
    ])('%s', (_, method, path, response) => {
      expect(check(method, path, response)).toEqual([])
    })
  })

  describe('reports what breaks the document', () => {
    it('an answer without its Request-Id', () => {
      const response = { status: 204, headers: {}, body: '' }
      expect(
        checkResponseAgainstOpenApi({
          request: { method: 'POST', path: '/__sandbox/reset' },
          response,
        }),
      ).toEqual([expect.stringMatching(/request-id/i)])
    })

    it('an undeclared status', () => {
      expect(check('GET', '/pets', { status: 409, headers: API, body: error('x', 409) })).toEqual([
        'status 409 is not declared for listPets',
      ])
    })

    it('a missing X-RateLimit-Remaining, on an operation and on an undeclared path', () => {
      const { 'x-ratelimit-remaining': _, ...headers } = API
      const missing = 'header X-RateLimit-Remaining is required but missing'
      const page = { status: 200, headers: { ...headers, 'x-total-count': '1' }, body: '[]' }
      expect(check('GET', '/pets', page)).toEqual([missing])
      const notFound = { status: 404, headers, body: error('route_not_found', 404) }
      expect(check('GET', '/owners', notFound)).toEqual([missing])
    })

    it('a body that breaks the schema', () => {
      const body = JSON.stringify([{ ...PET, name: 5, secret: true }, { name: 'Rex' }])
      const page = { status: 200, headers: { ...API, 'x-total-count': '2' }, body }
      expect(check('GET', '/pets', page)).toEqual([
        'body/0 must NOT have additional properties: secret',
        'body/0/name must be string',
        "body/1 must have required property 'id'",
        "body/1 must have required property 'categoryId'",
        "body/1 must have required property 'status'",
      ])
    })

    it('a code that does not belong to the status', () => {
      const response = {
        status: 401,
        headers: { ...API, 'www-authenticate': 'Bearer realm="petstore"' },
        body: error('pet_not_found', 400),
      }
      expect(check('GET', '/pets', response)).toEqual([
        'body/code must be equal to one of the allowed values: missing_api_key, malformed_authorization, invalid_api_key',
        'body/status must be equal to constant: 401',
      ])
      const lost = { status: 404, headers: API, body: error('pet_not_found', 404) }
      expect(check('GET', '/owners', lost)).toEqual([
        'body/code must be equal to one of the allowed values: route_not_found',
      ])
    })

    it.each([
      ['1.5', 'must be integer'],
      ['soon', 'must be integer'],
      ['', 'must be integer'],
      ['0', 'must be >= 1'],
    ])('a Retry-After of %j', (value, problem) => {
      const response = {
        status: 429,
        headers: { ...API, 'retry-after': value },
        body: error('rate_limit_exceeded', 429),
      }
      expect(check('GET', '/pets', response)).toEqual([`header Retry-After (${value}) ${problem}`])
    })

    it('a 405 without Allow, and getPet without its deprecation headers', () => {
      const response = { status: 405, headers: API, body: error('method_not_allowed', 405) }
      expect(check('DELETE', '/pets', response)).toEqual(['header Allow is required but missing'])
      expect(
        check('GET', '/pets/1', { status: 200, headers: API, body: JSON.stringify(PET) }),
      ).toEqual([
        'header Deprecation is required but missing',
        'header Sunset is required but missing',
        'header Link is required but missing',
      ])
    })

    it('a body that is not JSON, or not of a declared media type, or not expected', () => {
      const page = { status: 200, headers: { ...API, 'x-total-count': '1' } }
      expect(check('GET', '/pets', { ...page, body: '<html>' })).toEqual([
        'the body is not JSON: "<html>"',
      ])
      const text = { ...page, headers: { ...page.headers, 'content-type': 'text/plain' } }
      expect(check('GET', '/pets', { ...text, body: '[]' })).toEqual([
        'content type "text/plain" is not declared (application/json)',
      ])
      expect(check('POST', '/__sandbox/reset', { status: 204, body: 'done' })).toEqual([
        'the response has a body but declares no content',
      ])
    })
  })
})
