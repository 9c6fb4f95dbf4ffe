import { describe, expect, it } from 'vitest'
import { FIDELITY_DEFAULTS, type FidelitySettings } from '../../src/contract/fidelity.js'
import { ANSWER_RULES, type AnswerRule } from '../../src/validation/answer-rules.js'
import {
  createAnswerValidator,
  type RoutedAnswer,
  validateAnswer,
} from '../../src/validation/create-answer-validator.js'

const BASE = 'https://api.example.test/v1'
const RATE = {
  'X-RateLimit-Limit': '60',
  'X-RateLimit-Remaining': '59',
  'X-RateLimit-Reset': '1767225660',
}
const JSON_TYPE = { 'Content-Type': 'application/json' }
const DEPRECATED = { Deprecation: '@1767225600', Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' }
const pet = (id: number, status = 'available') => ({ id, name: `Pet ${id}`, categoryId: 1, status })
const error = (status: number, code: string) => JSON.stringify({ code, message: 'No.', status })

const list = (
  query: string,
  pets: unknown,
  headers: Record<string, string> = {},
): RoutedAnswer => ({
  operation: 'listPets',
  method: 'GET',
  url: `${BASE}/pets${query}`,
  status: 200,
  headers: { ...JSON_TYPE, ...RATE, 'X-Total-Count': '25', ...headers },
  body: JSON.stringify(pets),
})
const create = (sent: unknown, answered: unknown, status = 201): RoutedAnswer => ({
  operation: 'createPet',
  method: 'POST',
  url: `${BASE}/pets`,
  requestBody: typeof sent === 'string' ? sent : JSON.stringify(sent),
  status,
  headers: { ...JSON_TYPE, ...RATE },
  body: typeof answered === 'string' ? answered : JSON.stringify(answered),
})
const get = (id: string, status: number, body: string, headers: Record<string, string> = {}) => ({
  operation: 'getPet' as const,
  method: 'GET',
  url: `${BASE}/pets/${id}`,
  status,
  headers: { ...JSON_TYPE, ...RATE, ...DEPRECATED, ...headers },
  body,
})
const failed = (status: number, code: string, headers: Record<string, string> = {}) => ({
  operation: 'listPets' as const,
  method: 'GET',
  url: `${BASE}/pets`,
  status,
  headers: { ...JSON_TYPE, ...RATE, ...headers },
  body: error(status, code),
})
const without = (headers: Record<string, string>, name: string) =>
  Object.fromEntries(Object.entries(headers).filter(([key]) => key !== name))

const TWENTY_ONE = Array.from({ length: 21 }, (_, i) => pet(i + 1))
const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="petstore"' }

/** The rules of an OpenAPI document's operations are checked by the document (test/openapi/check-document-answer.test.ts). */
type ContractRule = Exclude<AnswerRule, `spec.document.${string}`>

/** One good answer and one broken answer per rule; the broken one must name exactly that rule. */
const CASES: Record<
  ContractRule,
  { good: RoutedAnswer; broken: RoutedAnswer; fidelity?: Partial<FidelitySettings> }
> = {
  'spec.responses.status': {
    good: failed(401, 'missing_api_key', CHALLENGE),
    broken: { ...failed(403, 'forbidden'), status: 403 },
  },
  'spec.responses.json': {
    good: get('1', 200, JSON.stringify(pet(1))),
    broken: { ...get('1', 200, JSON.stringify(pet(1))), body: '' },
  },
  'spec.responses.content-type': {
    good: failed(400, 'invalid_parameter'),
    broken: failed(400, 'invalid_parameter', { 'Content-Type': 'text/plain' }),
  },
  'spec.errors.body': {
    good: failed(500, 'internal_error'),
    broken: { ...failed(500, 'internal_error'), body: '{"error":"boom"}' },
  },
  'spec.errors.status': {
    good: failed(503, 'service_unavailable'),
    broken: { ...failed(503, 'service_unavailable'), body: error(500, 'service_unavailable') },
  },
  'spec.errors.allow': {
    good: {
      ...failed(405, 'method_not_allowed', { Allow: 'GET, POST' }),
      operation: null,
      method: 'DELETE',
    },
    broken: { ...failed(405, 'method_not_allowed'), operation: null, method: 'DELETE' },
  },
  'spec.auth.challenge': {
    good: failed(401, 'invalid_api_key', { 'WWW-Authenticate': 'Bearer error="invalid_token"' }),
    broken: failed(401, 'invalid_api_key', { 'WWW-Authenticate': 'Basic realm="x"' }),
  },
  'spec.rate-limit.headers': {
    good: list('', [pet(1)]),
    broken: {
      ...list('', [pet(1)]),
      headers: without(list('', []).headers as Record<string, string>, 'X-RateLimit-Remaining'),
    },
  },
  'spec.rate-limit.reset': {
    good: list('', [pet(1)], { 'X-RateLimit-Reset': '1767225600' }),
    broken: list('', [pet(1)], { 'X-RateLimit-Reset': '60' }),
  },
  'spec.rate-limit.retry-after': {
    good: failed(429, 'rate_limit_exceeded', { 'Retry-After': '12' }),
    broken: failed(429, 'rate_limit_exceeded'),
  },
  'spec.list.body': {
    good: list('?limit=2', [pet(1), pet(2)]),
    broken: list('?limit=2', { pets: [pet(1)] }),
  },
  'spec.list.limit': {
    good: list('', TWENTY_ONE.slice(0, 20)),
    broken: list('', TWENTY_ONE),
  },
  'spec.list.status-filter': {
    good: list('?status=sold', [pet(1, 'sold')]),
    broken: list('?status=sold', [pet(1, 'sold'), pet(2, 'pending')]),
  },
  'spec.create.body': {
    good: create({ name: 'Rex', categoryId: 2 }, { ...pet(26), name: 'Rex', categoryId: 2 }),
    broken: create({ name: 'Rex', categoryId: 2 }, { name: 'Rex', categoryId: 2 }),
  },
  'spec.create.echo': {
    good: create(
      { name: ' Rex ', categoryId: 2, status: 'sold' },
      { id: 26, name: 'Rex', categoryId: 2, status: 'sold' },
    ),
    broken: create(
      { name: 'Rex', categoryId: 2, status: 'sold' },
      { id: 26, name: 'Rex', categoryId: 2, status: 'pending' },
    ),
  },
  'spec.get.body': {
    good: get('7', 200, JSON.stringify(pet(7))),
    broken: get('7', 200, JSON.stringify({ ...pet(7), id: '7' })),
  },
  'spec.get.id': {
    good: get('7', 200, JSON.stringify(pet(7))),
    broken: get('7', 200, JSON.stringify(pet(8))),
  },
  'spec.get.deprecation': {
    good: get('99', 404, error(404, 'pet_not_found')),
    broken: get('99', 404, error(404, 'pet_not_found'), { Deprecation: 'true' }),
  },
  'spec.get.sunset': {
    good: get('99', 404, error(404, 'pet_not_found')),
    broken: get('99', 404, error(404, 'pet_not_found'), {
      Sunset: 'Fri, 06 Dec 2030 00:00:00 GMT',
    }),
  },
  'gap.limitOutOfRange': {
    good: failed(400, 'invalid_parameter'),
    broken: list('?limit=500', [pet(1)]),
  },
  'gap.unknownStatusFilter': {
    good: { ...failed(400, 'invalid_parameter'), url: `${BASE}/pets?status=adopted` },
    broken: list('?status=adopted', [pet(1)]),
  },
  'gap.defaultStatus': {
    good: create({ name: 'Rex', categoryId: 2 }, { ...pet(26), name: 'Rex', categoryId: 2 }),
    broken: create(
      { name: 'Rex', categoryId: 2 },
      { ...pet(26, 'pending'), name: 'Rex', categoryId: 2 },
    ),
  },
  'gap.nameMaxLength': {
    good: create({ name: 'x'.repeat(100), categoryId: 1 }, { ...pet(26), name: 'x'.repeat(100) }),
    broken: create({ name: 'x'.repeat(101), categoryId: 1 }, { ...pet(26), name: 'x'.repeat(101) }),
  },
  'gap.unknownFields': {
    fidelity: { unknownFields: 'reject' },
    good: create({ name: 'Pet 26', categoryId: 1, status: 'available' }, pet(26)),
    broken: create({ name: 'Pet 26', categoryId: 1, colour: 'red' }, pet(26)),
  },
  'gap.pagination': {
    good: list('?limit=1', [pet(1)], {
      Link: `<${BASE}/pets?limit=1&cursor=YWZ0ZXI6MQ>; rel="next"`,
    }),
    broken: list('?limit=1', [pet(1)], { Link: `<${BASE}/pets?limit=1&page=2>; rel="next"` }),
  },
  'gap.totalCountHeader': {
    good: list('?limit=1', [pet(1)]),
    broken: { ...list('?limit=1', [pet(1)]), headers: { ...JSON_TYPE, ...RATE } },
  },
  'gap.errorCodes': {
    good: get('99', 404, error(404, 'pet_not_found')),
    broken: get('99', 404, error(404, 'resource_missing')),
  },
  'gap.maxBodyBytes': {
    good: create(' '.repeat(70_000), error(413, 'payload_too_large'), 413),
    broken: create(' '.repeat(1_000), error(413, 'payload_too_large'), 413),
  },
}

describe('the response validator on hand-broken answers', () => {
  const validator = (fidelity: Partial<FidelitySettings> = {}) =>
    createAnswerValidator({ fidelity: { ...FIDELITY_DEFAULTS, ...fidelity } })
  const validate = validator()

  it('has a case for every rule', () => {
    expect(Object.keys(CASES).sort()).toEqual(
      Object.keys(ANSWER_RULES)
        .filter((rule) => !rule.startsWith('spec.document.'))
        .sort(),
    )
  })

  it.each(Object.entries(CASES))(
    'finds nothing wrong with the good answer of %s',
    (_rule, { good, fidelity }) => {
      expect(validator(fidelity)(good)).toEqual([])
    },
  )

  it.each(Object.entries(CASES))(
    'names %s, and only it, on the broken answer',
    (rule, { broken, fidelity }) => {
      const violations = validator(fidelity)(broken)
      expect(violations.length, JSON.stringify(violations)).toBeGreaterThan(0)
      expect(new Set(violations.map((v) => v.rule))).toEqual(new Set([rule]))
      for (const violation of violations) expect(violation.message).toMatch(/\.$/)
    },
  )

  it('runs no gap rule without fidelity settings', () => {
    for (const { broken } of Object.values(CASES)) {
      for (const violation of validateAnswer(broken)) expect(violation.rule).toMatch(/^spec\./)
    }
  })

  it('reads header names in any case, and a fetch Headers', () => {
    const lower = Object.fromEntries(
      Object.entries({ ...JSON_TYPE, ...RATE, ...DEPRECATED }).map(([k, v]) => [
        k.toLowerCase(),
        v,
      ]),
    )
    const answer = get('1', 200, JSON.stringify(pet(1)))
    expect(validate({ ...answer, headers: lower })).toEqual([])
    expect(validate({ ...answer, headers: new Headers(lower) })).toEqual([])
  })

  it('answers a non-JSON error body (an HTML gateway page) with the rules it breaks', () => {
    const answer = {
      ...failed(502, 'x'),
      headers: { ...RATE, 'Content-Type': 'text/html' },
      body: '<html>Bad gateway</html>',
    }
    expect(validate(answer).map((v) => v.rule)).toEqual([
      'spec.responses.content-type',
      'spec.responses.json',
    ])
  })

  it.each<[string, Partial<FidelitySettings>, RoutedAnswer]>([
    [
      'clamp: 200 for limit=500 with at most 100',
      { limitOutOfRange: 'clamp' },
      list('?limit=500', [pet(1)]),
    ],
    [
      'clamp: 200 for limit=0 with one pet',
      { limitOutOfRange: 'clamp' },
      list('?limit=0', [pet(1)]),
    ],
    [
      'ignore: 200 unfiltered',
      { unknownStatusFilter: 'ignore' },
      list('?status=adopted', [pet(1)]),
    ],
    ['empty: 200 with no pets', { unknownStatusFilter: 'empty' }, list('?status=adopted', [])],
    [
      'offset paging',
      { pagination: 'offset' },
      list('?limit=1', [pet(1)], { Link: `</v1/pets?limit=1&offset=1>; rel="next"` }),
    ],
    [
      'no total-count header',
      { totalCountHeader: false },
      { ...list('', [pet(1)]), headers: { ...JSON_TYPE, ...RATE } },
    ],
    [
      'another total-count header',
      { totalCountHeader: 'X-Total' },
      { ...list('', [pet(1)]), headers: { ...JSON_TYPE, ...RATE, 'x-total': '9' } },
    ],
    [
      'renamed codes',
      { errorCodes: { pet_not_found: 'not_found', route_not_found: 'not_found' } },
      get('99', 404, error(404, 'not_found')),
    ],
    [
      'a larger body limit',
      { maxBodyBytes: 100_000 },
      create(' '.repeat(90_000), error(400, 'malformed_json'), 400),
    ],
    [
      'another default status',
      { defaultStatus: 'pending' },
      create({ name: 'A', categoryId: 1 }, { id: 3, name: 'A', categoryId: 1, status: 'pending' }),
    ],
  ])('follows the fidelity settings (%s)', (_what, fidelity, answer) => {
    expect(createAnswerValidator({ fidelity })(answer)).toEqual([])
  })

  it.each<[string, Partial<FidelitySettings>, RoutedAnswer, AnswerRule]>([
    [
      'clamp: 2 pets for limit=0',
      { limitOutOfRange: 'clamp' },
      list('?limit=0', [pet(1), pet(2)]),
      'spec.list.limit',
    ],
    [
      'clamp: 400',
      { limitOutOfRange: 'clamp' },
      { ...failed(400, 'invalid_parameter'), url: `${BASE}/pets?limit=0` },
      'gap.limitOutOfRange',
    ],
    [
      'empty: pets listed',
      { unknownStatusFilter: 'empty' },
      list('?status=adopted', [pet(1)]),
      'gap.unknownStatusFilter',
    ],
    [
      'none: a next link',
      { pagination: 'none' },
      list('?limit=1', [pet(1)], { Link: `</v1/pets?offset=1>; rel="next"` }),
      'gap.pagination',
    ],
    [
      'false: X-Total-Count sent',
      { totalCountHeader: false },
      list('', [pet(1)]),
      'gap.totalCountHeader',
    ],
    [
      'a total below the count',
      { totalCountHeader: 'X-Total-Count' },
      list('', [pet(1), pet(2)], { 'X-Total-Count': '1' }),
      'gap.totalCountHeader',
    ],
    [
      'the renamed code itself',
      { errorCodes: { pet_not_found: 'not_found' } },
      get('99', 404, error(404, 'pet_not_found')),
      'gap.errorCodes',
    ],
    [
      'a code with another status',
      { errorCodes: {} },
      failed(400, 'pet_not_found'),
      'gap.errorCodes',
    ],
  ])('names the broken setting (%s)', (_what, fidelity, answer, rule) => {
    expect(createAnswerValidator({ fidelity })(answer).map((v) => v.rule)).toEqual([rule])
  })
})
