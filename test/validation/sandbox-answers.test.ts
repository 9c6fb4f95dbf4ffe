import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FIDELITY_DEFAULTS } from '../../src/contract/fidelity.js'
import { type BuiltInScenarioName, createSandboxCore, type HandleInput } from '../../src/index.js'
import { belowBasePath } from '../../src/pipeline/locate.js'
import { matchOperation } from '../../src/pipeline/route.js'
import {
  createAnswerValidator,
  validateAnswer,
} from '../../src/validation/create-answer-validator.js'

const BASE = 'https://api.example.test/v1'
const KEY = { authorization: 'Bearer sandbox-enterprise' }
const JSON_HEADERS = { ...KEY, 'content-type': 'application/json' }

/** The sandbox answers `input`; the validator (with the sandbox's own settings) judges the answer. */
const judge = async (
  core: ReturnType<typeof createSandboxCore>,
  input: HandleInput & { url: string; body?: string | null },
  validate = createAnswerValidator({ fidelity: FIDELITY_DEFAULTS }),
) => {
  const response = await core.handle(input)
  if (response === null) throw new Error(`${input.url} is not the API's`)
  const path = belowBasePath(new URL(input.url).pathname, '/v1') ?? ''
  const match = matchOperation(input.method, path)
  const answer = {
    operation: match.kind === 'found' ? match.value.id : null,
    method: input.method,
    url: input.url,
    requestBody: input.body ?? null,
    status: response.status,
    headers: response.headers,
    body: response.body,
  }
  return { response, violations: validate(answer), spec: validateAnswer(answer) }
}

const REQUESTS: Array<HandleInput & { url: string; body?: string | null }> = [
  { method: 'GET', url: `${BASE}/pets`, headers: KEY },
  { method: 'GET', url: `${BASE}/pets?limit=1`, headers: KEY },
  { method: 'GET', url: `${BASE}/pets?limit=100&status=sold`, headers: KEY },
  { method: 'GET', url: `${BASE}/pets?limit=0`, headers: KEY },
  { method: 'GET', url: `${BASE}/pets?limit=abc`, headers: KEY },
  { method: 'GET', url: `${BASE}/pets?status=adopted`, headers: KEY },
  { method: 'GET', url: `${BASE}/pets?limit=1&limit=2`, headers: KEY },
  { method: 'GET', url: `${BASE}/pets?cursor=nonsense`, headers: KEY },
  { method: 'HEAD', url: `${BASE}/pets?limit=2`, headers: KEY },
  { method: 'OPTIONS', url: `${BASE}/pets`, headers: {} },
  { method: 'GET', url: `${BASE}/pets` },
  { method: 'GET', url: `${BASE}/pets`, headers: { authorization: 'Basic abc' } },
  { method: 'GET', url: `${BASE}/pets`, headers: { authorization: 'Bearer nope' } },
  {
    method: 'POST',
    url: `${BASE}/pets`,
    headers: JSON_HEADERS,
    body: '{"name":"  Rex  ","categoryId":3}',
  },
  {
    method: 'POST',
    url: `${BASE}/pets`,
    headers: JSON_HEADERS,
    body: '{"name":"Mia","categoryId":1,"status":"sold","colour":"grey"}',
  },
  { method: 'POST', url: `${BASE}/pets`, headers: JSON_HEADERS, body: '{}' },
  { method: 'POST', url: `${BASE}/pets`, headers: JSON_HEADERS, body: '{"name":' },
  { method: 'POST', url: `${BASE}/pets`, headers: KEY, body: '{"name":"Rex","categoryId":1}' },
  { method: 'POST', url: `${BASE}/pets`, headers: JSON_HEADERS, body: ' '.repeat(70_000) },
  { method: 'GET', url: `${BASE}/pets/1`, headers: KEY },
  { method: 'HEAD', url: `${BASE}/pets/1`, headers: KEY },
  { method: 'GET', url: `${BASE}/pets/999999`, headers: KEY },
  { method: 'GET', url: `${BASE}/pets/abc`, headers: KEY },
  { method: 'GET', url: `${BASE}/owners`, headers: KEY },
  { method: 'DELETE', url: `${BASE}/pets`, headers: KEY },
  { method: 'GET', url: `${BASE}/pets?__scenario=nope`, headers: KEY },
]

const SCENARIOS: BuiltInScenarioName[] = [
  'default',
  'empty',
  'paginated',
  'rate-limited',
  'banned',
  'unauthorized',
  'server-error',
  'unavailable',
  'sunset',
  'flaky',
]

describe('the response validator on the sandbox’s own answers', () => {
  it.each(SCENARIOS)('finds no violation in the %s scenario', async (scenario) => {
    const core = createSandboxCore({ scenario })
    const checked: number[] = []
    for (const request of REQUESTS) {
      const { response, violations, spec } = await judge(core, request)
      if (response.fault !== undefined) continue
      checked.push(response.status)
      expect(violations, `${request.method} ${request.url} → ${response.status}`).toEqual([])
      expect(spec).toEqual([])
    }
    expect(checked.length).toBeGreaterThan(REQUESTS.length / 2)
  })

  it('finds no violation after the removal date (410 on getPet)', async () => {
    const core = createSandboxCore({ now: () => Date.parse('2031-01-01T00:00:00Z') })
    const { response, violations } = await judge(core, {
      method: 'GET',
      url: `${BASE}/pets/1`,
      headers: KEY,
    })
    expect(response.status).toBe(410)
    expect(violations).toEqual([])
  })

  it('finds no violation on any list query (fast-check)', async () => {
    const core = createSandboxCore({ scenario: 'paginated' })
    const validate = createAnswerValidator({ fidelity: FIDELITY_DEFAULTS })
    const value = fc.oneof(
      fc.constantFrom('1', '20', '100', '0', '101', '-1', 'abc', '', '5.5', 'available', 'sold'),
      fc.string({ maxLength: 6 }),
    )
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom('limit', 'status', 'cursor', 'x'), value), {
          maxLength: 3,
        }),
        async (params) => {
          const url = `${BASE}/pets?${new URLSearchParams(params)}`
          const { response, violations } = await judge(
            core,
            { method: 'GET', url, headers: KEY },
            validate,
          )
          expect(violations, `${url} → ${response.status} ${response.body}`).toEqual([])
        },
      ),
      { numRuns: 150 },
    )
  })
})
