import { describe, expect, it } from 'vitest'
import type { SuiteContext } from './define-conformance-suite.js'
import { expectApiError } from './expect-api-error.js'
import type { WireRequest, WireResponse } from './target.js'

type OperationName = 'listPets' | 'createPet' | 'getPet'

/** What an operation answers in a scenario: a status (and error code), or a failed connection. */
type Expected = { status: number; code?: string } | 'fails'

const OPERATIONS: Record<OperationName, WireRequest> = {
  listPets: { method: 'GET', path: '/pets' },
  createPet: {
    method: 'POST',
    path: '/pets',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Scenario Rex', categoryId: 2 }),
  },
  getPet: { method: 'GET', path: '/pets/1' },
}

const all = (expected: Expected): Record<OperationName, Expected> => ({
  listPets: expected,
  createPet: expected,
  getPet: expected,
})

/** The README's table of scenarios, as the suite checks it (`flaky` has its own tests). */
const TABLE: Record<string, Record<OperationName, Expected>> = {
  default: { listPets: { status: 200 }, createPet: { status: 201 }, getPet: { status: 200 } },
  empty: {
    listPets: { status: 200 },
    createPet: { status: 201 },
    getPet: { status: 404, code: 'pet_not_found' },
  },
  paginated: { listPets: { status: 200 }, createPet: { status: 201 }, getPet: { status: 200 } },
  'rate-limited': all({ status: 429, code: 'rate_limit_exceeded' }),
  banned: all({ status: 429, code: 'api_key_banned' }),
  unauthorized: all({ status: 401, code: 'invalid_api_key' }),
  'server-error': all({ status: 500, code: 'internal_error' }),
  unavailable: all({ status: 503, code: 'service_unavailable' }),
  slow: { listPets: { status: 200 }, createPet: { status: 201 }, getPet: { status: 200 } },
  timeout: all('fails'),
  'network-error': all('fails'),
  sunset: {
    listPets: { status: 200 },
    createPet: { status: 201 },
    getPet: { status: 410, code: 'operation_removed' },
  },
}

/** Scenarios whose requests read and write the default store. */
const USES_DEFAULT_STORE = new Set(['default', 'slow', 'sunset'])

const withQuery = (request: WireRequest, query: string): WireRequest => ({
  ...request,
  path: `${request.path}${request.path.includes('?') ? '&' : '?'}${query}`,
})

/** Contract §8: scenarios per request (flag, header) and sticky, and what each answers. */
export const scenariosSuite = (ctx: SuiteContext): void => {
  const send = (request: WireRequest) => ctx.sendAs('sandbox-enterprise', request)
  /** Settles a request into its response, or 'fails' when the connection failed (`send` rejected). */
  const attempt = (request: WireRequest): Promise<WireResponse | 'fails'> =>
    send(request).catch(() => 'fails' as const)
  const defaultTotal = async (): Promise<string | undefined> =>
    (await send({ method: 'GET', path: '/pets?__scenario=default' })).headers['x-total-count']

  // Every way to choose a scenario; `__delay=1` keeps slow and timeout short and is ignored by the others.
  const SELECTIONS: Record<string, (name: string, request: WireRequest) => Promise<WireRequest>> = {
    'the __scenario flag': async (name, request) =>
      withQuery(request, `__scenario=${name}&__delay=1`),
    'the X-Sandbox-Scenario header': async (name, request) => ({
      ...withQuery(request, '__delay=1'),
      headers: { ...request.headers, 'x-sandbox-scenario': name },
    }),
    'the sticky scenario': async (name, request) => {
      await ctx.target().controls.setScenario(name)
      return withQuery(request, '__delay=1')
    },
  }

  const check = (response: WireResponse | 'fails', expected: Expected): void => {
    if (expected === 'fails') {
      expect(response, 'the connection should fail').toBe('fails')
      return
    }
    expect(response, 'the connection failed').not.toBe('fails')
    const wire = response as WireResponse
    if (expected.code === undefined) expect(wire.status, wire.body).toBe(expected.status)
    else expectApiError(wire, expected.status, expected.code)
    for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
      expect(wire.headers[name], name).toMatch(/^\d+$/)
    }
    if (expected.status === 429 || expected.status === 503) {
      expect(wire.headers['retry-after']).toMatch(/^[1-9]\d*$/)
    }
    if (expected.status === 401) {
      expect(wire.headers['www-authenticate']).toBe(
        'Bearer realm="petstore", error="invalid_token"',
      )
    }
  }

  describe('scenarios', () => {
    for (const [selection, select] of Object.entries(SELECTIONS)) {
      describe(`chosen by ${selection}`, () => {
        for (const [scenario, answers] of Object.entries(TABLE)) {
          for (const [operation, expected] of Object.entries(answers) as [
            OperationName,
            Expected,
          ][]) {
            const outcome =
              expected === 'fails' ? 'fails the connection' : `answers ${expected.status}`
            it(`${scenario}: ${operation} ${outcome}${expected !== 'fails' && expected.code ? ` ${expected.code}` : ''}`, async () => {
              check(await attempt(await select(scenario, OPERATIONS[operation])), expected)
            })
          }
          const changes = USES_DEFAULT_STORE.has(scenario) ? 'adds the pet to' : 'leaves untouched'
          it(`${scenario}: createPet ${changes} the default store`, async () => {
            await attempt(await select(scenario, OPERATIONS.createPet))
            await ctx.target().controls.setScenario('default')
            expect(await defaultTotal()).toBe(USES_DEFAULT_STORE.has(scenario) ? '26' : '25')
          })
        }
      })
    }

    it('lets the flag win over the header', async () => {
      const response = await send({
        method: 'GET',
        path: '/pets?__scenario=server-error',
        headers: { 'x-sandbox-scenario': 'unavailable' },
      })
      expectApiError(response, 500, 'internal_error')
    })

    it('lets the flag and the header win over the sticky scenario', async () => {
      await ctx.target().controls.setScenario('unavailable')
      expect((await send({ method: 'GET', path: '/pets?__scenario=default' })).status).toBe(200)
      const header = await send({
        method: 'GET',
        path: '/pets',
        headers: { 'x-sandbox-scenario': 'default' },
      })
      expect(header.status).toBe(200)
    })

    it('forgets the sticky scenario on reset', async () => {
      await ctx.target().controls.setScenario('server-error')
      await ctx.target().controls.reset()
      expect((await send({ method: 'GET', path: '/pets' })).status).toBe(200)
    })

    it.each([
      ['flag', { method: 'GET', path: '/pets?__scenario=no-such' }],
      ['header', { method: 'GET', path: '/pets', headers: { 'x-sandbox-scenario': 'no-such' } }],
    ])(
      'answers 400 unknown_scenario listing the valid names for an unknown %s',
      async (_, request) => {
        const error = expectApiError(await send(request), 400, 'unknown_scenario')
        for (const name of [...Object.keys(TABLE), 'flaky']) expect(error.message).toContain(name)
      },
    )

    it('answers 400 invalid_parameter naming __scenario when the flag is repeated', async () => {
      const response = await send({ method: 'GET', path: '/pets?__scenario=slow&__scenario=empty' })
      const error = expectApiError(response, 400, 'invalid_parameter')
      expect(error.details?.map((d) => d.field)).toEqual(['__scenario'])
    })

    it('answers 400 invalid_parameter naming __delay for a delay out of bounds', async () => {
      const response = await send({ method: 'GET', path: '/pets?__scenario=slow&__delay=30001' })
      const error = expectApiError(response, 400, 'invalid_parameter')
      expect(error.details?.map((d) => d.field)).toEqual(['__delay'])
    })

    it.each(Object.keys(TABLE).filter((name) => name !== 'default'))(
      'checks the API key before the %s scenario answers',
      async (scenario) => {
        const response = await ctx.send({ method: 'GET', path: `/pets?__scenario=${scenario}` })
        expectApiError(response, 401, 'missing_api_key')
        expect(response.headers['www-authenticate']).toBe('Bearer realm="petstore"')
      },
    )

    it('keeps __scenario and __delay out of the next link', async () => {
      const response = await send({
        method: 'GET',
        path: '/pets?limit=5&__scenario=paginated&__delay=1',
      })
      expect(response.headers.link).toMatch(/[?&]limit=5&cursor=[^>&]+>; rel="next"$/)
      expect(response.headers.link).not.toContain('__')
    })

    it('pages through the 250 pets of paginated by following next links with the header', async () => {
      const ids: number[] = []
      let path: string | undefined = '/pets?limit=100'
      while (path !== undefined) {
        const response = await send({
          method: 'GET',
          path,
          headers: { 'x-sandbox-scenario': 'paginated' },
        })
        expect(response.headers['x-total-count']).toBe('250')
        ids.push(...(JSON.parse(response.body) as { id: number }[]).map((pet) => pet.id))
        const next = /<([^>]+)>; rel="next"/.exec(response.headers.link ?? '')?.[1]
        path = next === undefined ? undefined : next.slice(next.indexOf('/pets'))
      }
      expect(ids).toEqual(Array.from({ length: 250 }, (_, i) => i + 1))
    })

    it('lists no pets with X-Total-Count 0 in empty, then the pet created there', async () => {
      const before = await send({ method: 'GET', path: '/pets?__scenario=empty' })
      expect(JSON.parse(before.body)).toEqual([])
      expect(before.headers['x-total-count']).toBe('0')
      const created = await send(withQuery(OPERATIONS.createPet, '__scenario=empty'))
      expect(JSON.parse(created.body)).toMatchObject({ id: 1, name: 'Scenario Rex' })
      const after = await send({ method: 'GET', path: '/pets/1?__scenario=empty' })
      expect(JSON.parse(after.body)).toMatchObject({ id: 1, name: 'Scenario Rex' })
    })

    it('answers getPet 410 in sunset with the Deprecation, Sunset and successor Link headers', async () => {
      const response = await send({ method: 'GET', path: '/pets/1?__scenario=sunset' })
      expectApiError(response, 410, 'operation_removed')
      expect(response.headers.deprecation).toMatch(/^@\d+$/)
      expect(response.headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT')
      expect(response.headers.link).toMatch(/\/v1\/pets>; rel="successor-version"$/)
    })

    it('fails a seeded share of flaky requests, and the same ones again after reset', async () => {
      const run = async (): Promise<string[]> => {
        const outcomes: string[] = []
        for (let i = 0; i < 40; i++) {
          const response = await attempt({ method: 'GET', path: '/pets?__scenario=flaky' })
          if (response !== 'fails' && response.status === 503) {
            expectApiError(response, 503, 'service_unavailable')
            expect(response.headers['retry-after']).toBe('1')
          }
          outcomes.push(response === 'fails' ? 'fails' : String(response.status))
        }
        return outcomes
      }
      const first = await run()
      expect(new Set(first)).toEqual(new Set(['200', '503', 'fails']))
      await ctx.target().controls.reset()
      expect(await run()).toEqual(first)
    })
  })
}
