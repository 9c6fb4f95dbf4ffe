import { LIMITS } from '../contract/limits.js'
import { describeAnswer, probe, recordCheck, sight, type VerifyContext } from './verify-context.js'

/**
 * `spec.get.found` and `spec.get.not-found` (getPet, deprecated: its
 * Deprecation and Sunset headers are judged by the validator on both), and
 * two errors for the `errorCodes` gap: a petId that is not a number, and a
 * path no route matches.
 */
export const runGetChecks = async (ctx: VerifyContext): Promise<void> => {
  const id = ctx.listed.firstId ?? ctx.created[0]?.id
  if (id !== undefined) {
    const found = await probe(ctx, 'spec.get.found', 'getPet', {
      method: 'GET',
      path: `/pets/${id}`,
    })
    if (found === undefined) return
    const json = found.json as { id?: unknown } | undefined
    const pass = found.status === 200 && json?.id === id
    recordCheck(ctx, 'spec.get.found', {
      pass,
      observed: describeAnswer(found),
      expected: `200 with the pet ${id}`,
      message: pass
        ? `GET /pets/${id} is answered 200 with that pet.`
        : `GET /pets/${id} (a listed pet) is answered ${found.status}${found.status === 200 ? ' with another pet' : ''}.`,
    })
  }
  const unknown = LIMITS.maxId
  const missing = await probe(ctx, 'spec.get.not-found', 'getPet', {
    method: 'GET',
    path: `/pets/${unknown}`,
  })
  if (missing === undefined) return
  recordCheck(ctx, 'spec.get.not-found', {
    pass: missing.status === 404,
    observed: describeAnswer(missing),
    expected: '404 with an Error body',
    message:
      missing.status === 404
        ? `GET /pets/${unknown} is answered 404.`
        : `GET /pets/${unknown} (no such pet) is answered ${missing.status}, not 404.`,
  })
  sight(ctx, `GET /pets/${unknown}`, 'pet_not_found', 404, missing)

  const notANumber = await probe(ctx, 'gap.errorCodes', 'getPet', {
    method: 'GET',
    path: '/pets/verify-not-a-number',
  })
  sight(ctx, 'GET /pets/verify-not-a-number', 'invalid_parameter', 400, notANumber)
  const noRoute = await probe(ctx, 'gap.errorCodes', null, {
    method: 'GET',
    path: '/petstore-sandbox-verify-no-such-route',
  })
  sight(ctx, 'GET /petstore-sandbox-verify-no-such-route', 'route_not_found', 404, noRoute)
}
