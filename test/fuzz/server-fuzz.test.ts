import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpTarget } from '../conformance/targets/http-target.js'
import { sendHttp } from '../server/support/send-raw.js'
import { answerProblems, apiRequest, fuzzParameters } from './fuzz-support.js'

// Random requests and random control-API calls over real HTTP, replayable by seed.
const target = createHttpTarget()
beforeAll(() => target.start())
afterAll(() => target.stop())

const CONTROL_PATHS = [
  '/',
  '/openapi.json',
  '/reset',
  '/scenario',
  '/clock',
  '/keys',
  '/keys/sandbox-free',
  '/keys/%ff',
  '/keys/nope',
  '/requests',
  '/nope',
]
const controlBody = fc.oneof(
  fc
    .record(
      {
        name: fc.oneof(
          fc.constantFrom('default', 'empty', 'sunset', 'nope'),
          fc.string({ maxLength: 8 }),
        ),
        advanceMs: fc.oneof(fc.double(), fc.integer(), fc.constantFrom(1e308, -1e308, 8.64e15)),
        now: fc.oneof(
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
          fc.string({ maxLength: 10 }),
        ),
        plan: fc.constantFrom('free', 'pro', 'business', 'enterprise', 'gold'),
        key: fc.string({ maxLength: 12 }),
        perMinute: fc.oneof(fc.integer(), fc.double()),
      },
      { requiredKeys: [] },
    )
    .map((b) => JSON.stringify(b)),
  fc.json({ maxDepth: 2 }),
  fc.string({ maxLength: 20 }),
)
const controlRequest = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'),
  path: fc.constantFrom(...CONTROL_PATHS),
  contentType: fc.constantFrom('application/json', 'text/plain', undefined),
  body: fc.option(controlBody, { nil: undefined }),
})

const stillServes = async (): Promise<void> => {
  await target.controls.reset()
  const pets = await target.send({
    method: 'GET',
    path: '/pets',
    headers: { authorization: 'Bearer sandbox-free' },
  })
  expect(pets.status).toBe(200)
}

describe('fuzz: the standalone server', () => {
  it('answers every random API request with a valid success or a JSON Error, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(apiRequest, async (request) => {
        const response = await sendHttp(target.origin, {
          method: request.method,
          path: `/v1${request.path}`,
          headers: request.headers ?? {},
          ...(typeof request.body === 'string' ? { body: request.body } : {}),
        })
        const wire = {
          status: response.status,
          headers: Object.fromEntries(
            Object.entries(response.headers).map(([k, v]) => [k, String(v)]),
          ),
          body: response.body,
        }
        // The server resolves `.` and `..` as WHATWG URL does; check against that path.
        expect(
          answerProblems(request, wire, { normalizesUrl: true }),
          `${request.method} ${request.path}`,
        ).toEqual([])
      }),
      fuzzParameters(300),
    )
    await stillServes()
  })

  it('answers every random control-API call with a valid success or a JSON Error, never a 5xx', async () => {
    await fc.assert(
      fc
        .asyncProperty(controlRequest, async ({ method, path, contentType, body }) => {
          const headers: Record<string, string> =
            contentType === undefined ? {} : { 'content-type': contentType }
          const hasBody = body !== undefined && method !== 'GET' && method !== 'HEAD'
          const response = await sendHttp(target.origin, {
            method,
            path: `/__sandbox${path}`,
            headers,
            ...(hasBody ? { body } : {}),
          })
          const wire = {
            status: response.status,
            headers: Object.fromEntries(
              Object.entries(response.headers).map(([k, v]) => [k, String(v)]),
            ),
            body: response.body,
          }
          const request = { method, path: `/__sandbox${path}`, headers }
          expect(answerProblems(request, wire), `${method} ${path} ${body ?? ''}`).toEqual([])
          // The process stays up and the state valid: the API answers after every call.
          const pets = await target.send({
            method: 'GET',
            path: '/pets?limit=1',
            headers: { authorization: 'Bearer sandbox-enterprise' },
          })
          expect([200, 401, 429, 410]).toContain(pets.status)
          expect(pets.status, pets.body).toBeLessThan(500)
        })
        .afterEach(async () => {
          await target.controls.reset()
        }),
      fuzzParameters(200),
    )
    await stillServes()
  })
})
