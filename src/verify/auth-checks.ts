import type { Observed } from './probe-runner.js'
import { describeAnswer, recordCheck, sight, type VerifyContext } from './verify-context.js'

const expect401 = (ctx: VerifyContext, id: string, what: string, answer: Observed | undefined) => {
  if (answer === undefined) return
  recordCheck(ctx, id, {
    pass: answer.status === 401,
    observed: describeAnswer(answer),
    expected: '401 with an Error body',
    message:
      answer.status === 401
        ? `${what} is answered 401.`
        : `${what} is answered ${answer.status}, not 401: the spec answers a missing or invalid key with 401.`,
  })
}

/**
 * `spec.auth.*`: no Authorization, an unknown key and a header not of the
 * form `Bearer <key>` are each answered 401 (the spec's Authentication 4 and
 * its Errors table). None of these requests carries the user's key.
 */
export const runAuthChecks = async (ctx: VerifyContext): Promise<void> => {
  const missing = await ctx.runner.send({
    check: 'spec.auth.missing-key',
    operation: 'listPets',
    method: 'GET',
    path: '/pets',
    auth: 'none',
  })
  expect401(ctx, 'spec.auth.missing-key', 'GET /pets without Authorization', missing)
  sight(ctx, 'GET /pets without Authorization', 'missing_api_key', 401, missing)

  // A random key: the user's own key is never sent in a wrong form.
  const unknownKey = `petstore-sandbox-verify-${Math.random().toString(36).slice(2, 12)}`
  const invalid = await ctx.runner.send({
    check: 'spec.auth.invalid-key',
    operation: 'listPets',
    method: 'GET',
    path: '/pets',
    auth: { authorization: `Bearer ${unknownKey}` },
  })
  expect401(ctx, 'spec.auth.invalid-key', 'GET /pets with an unknown key', invalid)
  sight(ctx, 'GET /pets with an unknown key', 'invalid_api_key', 401, invalid)

  const malformed = await ctx.runner.send({
    check: 'spec.auth.malformed',
    operation: 'listPets',
    method: 'GET',
    path: '/pets',
    auth: { authorization: 'Token petstore-sandbox-verify' },
  })
  expect401(ctx, 'spec.auth.malformed', 'GET /pets with "Authorization: Token …"', malformed)
  sight(ctx, 'GET /pets with "Authorization: Token …"', 'malformed_authorization', 401, malformed)
}
