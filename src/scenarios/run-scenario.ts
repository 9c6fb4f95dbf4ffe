import { runsOperation } from '../faults/shape-fault.js'
import { ApiError } from '../http/api-error.js'
import type { Awaitable } from '../http/awaitable.js'
import type { Fault, SandboxResponse } from '../http/types.js'
import type { Scenario, ScenarioContext } from './define-scenario.js'

const checkDelay = (scenario: Scenario, delayMs: number): number => {
  if (!Number.isFinite(delayMs) || delayMs < 0) {
    throw new TypeError(
      `Failed to run scenario "${scenario.name}": delayMs returned ${String(delayMs)}. Return a finite number of milliseconds >= 0.`,
    )
  }
  return delayMs
}

/**
 * The answer of a fault that replaces the operation's: an honest 503 that a
 * runtime able to fail the connection (all of ours) never sends; the last
 * stage shapes `proxy-error`'s and `empty-response`'s bytes from it.
 */
const faultResponse = (scenario: Scenario, fault: Fault): SandboxResponse => ({
  ...new ApiError(
    'service_unavailable',
    `The connection failed (${fault}, forced by the "${scenario.name}" scenario).`,
  ).toResponse(),
  fault,
})

/**
 * Applies a scenario's hooks to one routed request, in this order: `delayMs`
 * (a bad `__delay` is answered at once), `fault` (with its `faultSetting`;
 * the operation does not run for a fault that replaces the answer, and runs,
 * its answer marked with the fault, for one inside the answer), `respond`, and
 * finally `operate` (the operation on the scenario's store).
 * Errors of `respond` and of the operation are answered, and delayed, too.
 *
 * @example
 * const response = await runScenario(scenario, ctx, () => operation.run(operationContext))
 */
export const runScenario = (
  scenario: Scenario,
  context: ScenarioContext | (() => ScenarioContext),
  operate: () => Awaitable<SandboxResponse>,
): Awaitable<SandboxResponse> => {
  // Made only for a scenario with hooks that read it: `default` has none (decision 0039).
  let made: ScenarioContext | undefined
  const ctx = (): ScenarioContext => {
    made ??= typeof context === 'function' ? context() : context
    return made
  }
  const delayMs =
    scenario.delayMs === undefined ? undefined : checkDelay(scenario, scenario.delayMs(ctx()))
  const fault = typeof scenario.fault === 'function' ? scenario.fault(ctx()) : scenario.fault
  // A copy: an operation may answer a shared, frozen value (a cached list page).
  const delayed = (response: SandboxResponse): SandboxResponse =>
    delayMs !== undefined && delayMs > 0 ? { ...response, delayMs } : response
  if (fault !== undefined) {
    // The setting first: a bad `__bandwidth` is answered at once, before the operation runs.
    const faultSetting = scenario.faultSetting?.(ctx())
    if (!runsOperation(fault)) return delayed({ ...faultResponse(scenario, fault), faultSetting })
    // The answer the request would otherwise get (an error too), broken by the fault.
    const broken = (response: SandboxResponse): SandboxResponse =>
      delayed({ ...response, fault, faultSetting })
    const answer = respondOrOperate(scenario, ctx, operate)
    return answer instanceof Promise ? answer.then(broken) : broken(answer)
  }
  let response: Awaitable<SandboxResponse>
  try {
    const forced = scenario.respond?.(ctx())
    if (forced instanceof ApiError) throw forced
    // A copy: a scenario may return the same response value every time.
    response = forced === undefined ? operate() : { ...forced }
  } catch (error) {
    return delayed(answerApiError(error))
  }
  // Synchronous when the operation is (memory, decision 0039).
  if (response instanceof Promise)
    return response.then(delayed, (error: unknown) => delayed(answerApiError(error)))
  return delayed(response)
}

/** `respond`, else the operation, their ApiErrors answered (the fault path: not the hot one). */
const respondOrOperate = (
  scenario: Scenario,
  ctx: () => ScenarioContext,
  operate: () => Awaitable<SandboxResponse>,
): Awaitable<SandboxResponse> => {
  try {
    const forced = scenario.respond?.(ctx())
    if (forced instanceof ApiError) throw forced
    const response = forced === undefined ? operate() : { ...forced }
    return response instanceof Promise ? response.catch(answerApiError) : response
  } catch (error) {
    return answerApiError(error)
  }
}

/** An ApiError as its answer; anything else is a programming error, rethrown. */
const answerApiError = (error: unknown): SandboxResponse => {
  if (!(error instanceof ApiError)) throw error
  return error.toResponse()
}
