import type { SandboxRequest, SandboxResponse } from '../http/types.js'
import type { Operation } from '../operations/operation.js'
import type { Scenario } from '../scenarios/define-scenario.js'
import { runScenario } from '../scenarios/run-scenario.js'
import type { SessionState } from '../state/sandbox-state.js'
import type { PipelineContext } from './pipeline-context.js'

export interface RunInput {
  request: SandboxRequest
  url: URL
  operation: Operation
  params: Record<string, string>
  scenario: Scenario
  session: SessionState
  now: number
  /** The limiter's headers for this request, which a scenario may mirror. */
  rateLimit: Record<string, string>
}

/**
 * Stage 7: the scenario's hooks (delay, fault, forced answer), then the
 * operation on the pets the state seam gives this session and scenario.
 *
 * @example
 * const response = await run(ctx, { request, url, operation, params, scenario, session, now, rateLimit })
 */
export const run = (ctx: PipelineContext, input: RunInput): Promise<SandboxResponse> => {
  const { request, url, operation, params, scenario, session, now } = input
  const clock = { now: () => now }
  return runScenario(
    scenario,
    {
      operationId: operation.id,
      request,
      url,
      clock,
      settings: ctx.settings,
      rateLimit: input.rateLimit,
      random: () => session.random(scenario),
    },
    async () =>
      operation.run({
        request,
        url,
        params,
        store: await session.store(scenario),
        now,
        settings: ctx.settings,
      }),
  )
}
