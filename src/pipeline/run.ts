import { type Awaitable, andThen } from '../http/awaitable.js'
import type { RequestUrl } from '../http/request-url.js'
import type { SandboxRequest, SandboxResponse } from '../http/types.js'
import type { Operation } from '../operations/operation.js'
import type { Scenario } from '../scenarios/define-scenario.js'
import { runScenario } from '../scenarios/run-scenario.js'
import type { SessionState } from '../state/sandbox-state.js'
import type { PipelineContext } from './pipeline-context.js'

export interface RunInput {
  request: SandboxRequest
  url: RequestUrl | URL
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
export const run = (ctx: PipelineContext, input: RunInput): Awaitable<SandboxResponse> => {
  const { request, url, operation, params, scenario, session, now } = input
  return runScenario(
    scenario,
    // Made only when a hook reads it (none for `default`), with its WHATWG URL (decision 0039).
    () => ({
      operationId: operation.id,
      request,
      url: url instanceof URL ? url : url.toURL(),
      clock: { now: () => now },
      settings: ctx.settings,
      rateLimit: input.rateLimit,
      random: () => session.random(scenario),
    }),
    // Synchronous when the session's store is (memory, decision 0039).
    () =>
      andThen(session.store(scenario), (store) =>
        operation.run({
          request,
          url,
          params,
          store,
          now,
          settings: ctx.settings,
          session: session.id,
        }),
      ),
  )
}
