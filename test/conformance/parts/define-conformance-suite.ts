import { beforeEach, describe, expect } from 'vitest'
import { FIDELITY_DEFAULTS } from '../../../src/contract/fidelity.js'
import { matchOperation } from '../../../src/pipeline/route.js'
import { createAnswerValidator } from '../../../src/validation/create-answer-validator.js'
import { checkResponseAgainstOpenApi } from '../../support/openapi-validator.js'
import { contractAuthSuite } from './contract-auth.suite.js'
import { contractCreateSuite } from './contract-create.suite.js'
import { contractErrorsSuite } from './contract-errors.suite.js'
import { contractGetSuite } from './contract-get.suite.js'
import { contractListSuite } from './contract-list.suite.js'
import { ownHandlersSuite } from './own-handlers.suite.js'
import { rateLimitSuite } from './rate-limit.suite.js'
import { scenariosSuite } from './scenarios.suite.js'
import type { ConformanceTarget, WireRequest, WireResponse } from './target.js'
import { verifySuite } from './verify.suite.js'

/** What each part of the suite gets: the target, and `send`, which also checks every response against the OpenAPI document. */
export interface SuiteContext {
  target(): ConformanceTarget
  /**
   * Sends a request and fails the test when the response breaks the OpenAPI
   * document or a rule of the response validator (src/validation, the one
   * verify and the upstream mode use).
   */
  send(request: WireRequest): Promise<WireResponse>
  /** Like `send` with `Authorization: Bearer <key>` (default `sandbox-enterprise`, the roomiest quota). */
  sendAs(key: string | undefined, request: WireRequest): Promise<WireResponse>
}

// The sandbox answers with its default settings in every conformance target.
const validateAnswer = createAnswerValidator({ fidelity: FIDELITY_DEFAULTS })

/** A part of the suite: `(ctx) => void`, declaring `describe`/`it` blocks. */
export type SuitePart = (ctx: SuiteContext) => void

/** The parts of the suite, one per area of the contract. */
export const PARTS = {
  auth: contractAuthSuite,
  list: contractListSuite,
  create: contractCreateSuite,
  get: contractGetSuite,
  errors: contractErrorsSuite,
  rateLimits: rateLimitSuite,
  scenarios: scenariosSuite,
  verify: verifySuite,
  // Needs a target made with `handlers: OWN_HANDLERS` (own-handlers.suite.ts): run only when named.
  ownHandlers: ownHandlersSuite,
} as const satisfies Record<string, SuitePart>

export type PartName = keyof typeof PARTS

export interface SuiteOptions {
  /** The outer `describe` title (default `conformance`). */
  title?: string
  /** The parts to run (default all, in the order of `PARTS`). */
  parts?: readonly PartName[]
}

/**
 * Declares the whole conformance suite against a runtime. `getTarget` is called
 * lazily, inside hooks and tests, so the runtime can start in `beforeAll`.
 *
 * @example
 * const target = createInProcessTarget()
 * beforeAll(() => target.start())
 * defineConformanceSuite(() => target)
 */
export const defineConformanceSuite = (
  getTarget: () => ConformanceTarget,
  options: SuiteOptions = {},
): void => {
  const all = (Object.keys(PARTS) as PartName[]).filter((name) => name !== 'ownHandlers')
  const parts = (options.parts ?? all).map((name) => PARTS[name])
  const send = async (request: WireRequest): Promise<WireResponse> => {
    const target = getTarget()
    const response = await target.send(request)
    const problems = checkResponseAgainstOpenApi({ request, response })
    expect(
      problems,
      `${request.method} ${request.path} → ${response.status} breaks the OpenAPI document`,
    ).toEqual([])
    const match = matchOperation(request.method, request.path.split('?')[0] ?? '')
    const violations = validateAnswer({
      operation: match.kind === 'found' ? match.value.id : null,
      method: request.method,
      url: `${target.baseUrl}${request.path}`,
      requestBody: request.body ?? null,
      status: response.status,
      headers: response.headers,
      body: response.body,
    })
    expect(
      violations,
      `${request.method} ${request.path} → ${response.status} breaks the response validator`,
    ).toEqual([])
    return response
  }
  const ctx: SuiteContext = {
    target: getTarget,
    send,
    sendAs: (key, request) =>
      send({
        ...request,
        headers: {
          ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
          ...request.headers,
        },
      }),
  }
  describe(options.title ?? 'conformance', () => {
    beforeEach(async () => {
      await getTarget().controls.reset()
    })
    for (const part of parts) part(ctx)
  })
}
