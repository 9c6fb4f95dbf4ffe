import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createInProcessTarget } from '../conformance/targets/in-process-target.js'
import { answerProblems, apiRequest, asFetchSends, fuzzParameters } from './fuzz-support.js'

// Random requests through the MSW handlers in this process (setupServer), replayable by seed.
const target = createInProcessTarget()
beforeAll(() => target.start())
afterAll(() => target.stop())

describe('fuzz: the in-process MSW runtime', () => {
  it('answers every random request with a valid success or a JSON Error, never a 5xx', async () => {
    await fc.assert(
      fc
        .asyncProperty(apiRequest, async (request) => {
          // `/v1/../x` leaves the API: MSW would (rightly) refuse it as unhandled.
          fc.pre(!asFetchSends(request.path).startsWith('/..'))
          const response = await target.send(request)
          expect(
            answerProblems(request, response, { normalizesUrl: true }),
            `${request.method} ${request.path}`,
          ).toEqual([])
        })
        .beforeEach(async () => {
          await target.sandbox.reset()
        }),
      fuzzParameters(500),
    )
    // State stays valid: a reset always works afterwards.
    await target.controls.reset()
    const pets = await target.send({
      method: 'GET',
      path: '/pets',
      headers: { authorization: 'Bearer sandbox-free' },
    })
    expect(pets.status).toBe(200)
  })
})
