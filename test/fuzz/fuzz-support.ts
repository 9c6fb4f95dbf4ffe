import fc from 'fast-check'
import type { WireRequest, WireResponse } from '../conformance/parts/target.js'
import { checkResponseAgainstOpenApi } from '../support/openapi-validator.js'

/**
 * fast-check parameters for a fuzz file: `numRuns` unless `FUZZ_RUNS` says
 * otherwise; `FUZZ_SEED` and `FUZZ_PATH` replay a failure exactly (fast-check
 * prints both when a property fails). See docs/development.md, "Fuzz tests".
 */
export const fuzzParameters = (numRuns: number): fc.Parameters<unknown> => {
  const seed = process.env.FUZZ_SEED
  const path = process.env.FUZZ_PATH
  return {
    numRuns: Number(process.env.FUZZ_RUNS ?? numRuns),
    ...(seed === undefined || seed === '' ? {} : { seed: Number(seed) }),
    ...(path === undefined || path === '' ? {} : { path }),
    // Print the seed and the shrunk counterexample on failure.
    verbose: 1,
  }
}

// Scenarios that answer normally: the fuzz invariant "no 5xx" holds under each of them.
const CALM_SCENARIOS = [
  'default',
  'empty',
  'paginated',
  'rate-limited',
  'banned',
  'unauthorized',
  'sunset',
]
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS']
const KEYS = ['sandbox-free', 'sandbox-pro', 'sandbox-enterprise', 'sandbox-enterprise', 'nope']

/** Printable ASCII: any HTTP client accepts it in a header value. */
const headerText = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 40,
})

/** Percent-encoded junk and plain text, valid or not. */
const pathPiece = fc.oneof(
  fc.constantFrom('1', '2', '25', '0', '-1', '9007199254740991', '9007199254740992', '1e3', '01'),
  fc.constantFrom('%ff', '%zz', '%', '%E0%A4%A', '%00', '%2F', '..', '.', '', '%20'),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
  fc.stringMatching(/^[A-Za-z0-9._~-]{1,10}$/),
)

const queryValue = fc.oneof(
  fc.constantFrom('1', '5', '100', '101', '0', 'abc', 'available', 'sold', 'x', '%ff', '', '-1'),
  fc.string({ maxLength: 20 }).map(encodeURIComponent),
  fc.constantFrom(...CALM_SCENARIOS, 'nope'),
)
const queryName = fc.constantFrom(
  'limit',
  'status',
  'cursor',
  '__scenario',
  'api_key',
  'token',
  'x',
  '%ff',
  'limit',
)

const query = fc
  .array(fc.tuple(queryName, queryValue), { maxLength: 4 })
  .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`))
  // `__scenario` can name only calm scenarios, or an unknown one.
  .filter(
    (q) => !/__scenario=(slow|timeout|network-error|flaky|server-error|unavailable)\b/.test(q),
  )

/** A path below the API base: the real routes most of the time, junk otherwise. */
export const apiPath = fc
  .tuple(
    fc.oneof(
      { weight: 3, arbitrary: fc.constant('/pets') },
      { weight: 3, arbitrary: pathPiece.map((id) => `/pets/${id}`) },
      { weight: 1, arbitrary: fc.array(pathPiece, { maxLength: 3 }).map((p) => `/${p.join('/')}`) },
    ),
    query,
  )
  .map(([path, q]) => `${path}${q}`)

const petLike = fc.record(
  {
    name: fc.oneof(fc.string({ maxLength: 120 }), fc.integer(), fc.constant(null)),
    categoryId: fc.oneof(
      fc.integer(),
      fc.double(),
      fc.string({ maxLength: 5 }),
      fc.constant(2 ** 53),
    ),
    status: fc.oneof(fc.constantFrom('available', 'pending', 'sold'), fc.string({ maxLength: 8 })),
    id: fc.integer(),
  },
  { requiredKeys: [] },
)

/** A request body: mostly pet-like JSON, sometimes any JSON, sometimes not JSON at all. */
export const body = fc.oneof(
  { weight: 4, arbitrary: petLike.map((p) => JSON.stringify(p)) },
  { weight: 1, arbitrary: fc.json({ maxDepth: 2 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
)

/** A request to the API: method, path and query, headers (each once), body. */
export const apiRequest: fc.Arbitrary<WireRequest & { headers: Record<string, string> }> = fc
  .record({
    method: fc.constantFrom(...METHODS),
    path: apiPath,
    key: fc.option(fc.constantFrom(...KEYS), { nil: undefined }),
    authorization: fc.option(headerText, { nil: undefined }),
    contentType: fc.option(
      fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', ''),
      { nil: undefined },
    ),
    scenario: fc.option(fc.constantFrom(...CALM_SCENARIOS, 'nope', ''), { nil: undefined }),
    extra: fc.option(headerText, { nil: undefined }),
    body: fc.option(body, { nil: undefined }),
  })
  .map((r) => {
    const headers: Record<string, string> = {}
    if (r.key !== undefined) headers.authorization = `Bearer ${r.key}`
    else if (r.authorization !== undefined) headers.authorization = r.authorization
    if (r.contentType !== undefined) headers['content-type'] = r.contentType
    if (r.scenario !== undefined) headers['x-sandbox-scenario'] = r.scenario
    if (r.extra !== undefined) headers['x-fuzz'] = r.extra
    const hasBody = r.body !== undefined && r.method !== 'GET' && r.method !== 'HEAD'
    return { method: r.method, path: r.path, headers, ...(hasBody ? { body: r.body } : {}) }
  })

/**
 * The fuzz invariant for one answer: never a 5xx (no scenario here forces
 * one); a success body valid against the OpenAPI document or a JSON Error whose
 * `status` is the HTTP status. HEAD and OPTIONS answers carry no body to check.
 * Returns the problems, `[]` when none.
 */
export const answerProblems = (
  sent: WireRequest,
  response: WireResponse,
  options: { normalizesUrl?: boolean } = {},
): string[] => {
  // A Fetch client resolves `..` and `.` before sending: check against what was sent.
  const request = options.normalizesUrl === true ? { ...sent, path: asFetchSends(sent.path) } : sent
  const problems: string[] = []
  if (response.status >= 500)
    problems.push(`status ${response.status}: ${response.body.slice(0, 200)}`)
  if (request.method === 'HEAD' || request.method === 'OPTIONS') {
    if (response.body !== '' && response.status >= 400)
      problems.push(...errorBodyProblems(response))
    return problems
  }
  // Outside the API (`/v1/..`) the document says nothing: the Error invariant only.
  if (request.path.startsWith('/..')) {
    if (response.status >= 400) problems.push(...errorBodyProblems(response))
    return problems
  }
  if (response.status >= 400) problems.push(...errorBodyProblems(response))
  problems.push(...checkResponseAgainstOpenApi({ request, response }))
  return problems
}

const errorBodyProblems = (response: WireResponse): string[] => {
  let body: unknown
  try {
    body = JSON.parse(response.body)
  } catch {
    return [`the error body is not JSON: ${JSON.stringify(response.body.slice(0, 80))}`]
  }
  const ok =
    typeof body === 'object' &&
    body !== null &&
    'code' in body &&
    typeof body.code === 'string' &&
    'message' in body &&
    typeof body.message === 'string' &&
    'status' in body &&
    body.status === response.status
  return ok
    ? []
    : [`not an Error body with status ${response.status}: ${response.body.slice(0, 120)}`]
}

/** The path below `/v1` that a Fetch client sends for `path`. */
export const asFetchSends = (path: string): string => {
  const url = new URL(`http://fuzz.test/v1${path}`)
  const full = `${url.pathname}${url.search}`
  return full.startsWith('/v1') ? full.slice(3) : `/..${full}`
}
