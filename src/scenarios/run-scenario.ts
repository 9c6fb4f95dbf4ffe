import { ApiError } from '../http/api-error.js'
import type { Awaitable } from '../http/awaitable.js'
import type { SandboxResponse, TransportFault } from '../http/types.js'
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
 * What a runtime does when it cannot honour a fault: an honest 503. A runtime
 * that can fail the connection (all of ours) never sends this body.
 */
const faultResponse = (scenario: Scenario, fault: TransportFault): SandboxResponse => ({
  ...new ApiError(
    'service_unavailable',
    `The connection failed (${fault}, forced by the "${scenario.name}" scenario).`,
  ).toResponse(),
  fault,
})

/**
 * Applies a scenario's hooks to one routed request, in this order: `delayMs`
 * (a bad `__delay` is answered at once), `fault` (the operation does not run),
 * `respond`, and finally `operate` (the operation on the scenario's store).
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
  if (fault !== undefined) return delayed(faultResponse(scenario, fault))
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

/** An ApiError as its answer; anything else is a programming error, rethrown. */
const answerApiError = (error: unknown): SandboxResponse => {
  if (!(error instanceof ApiError)) throw error
  return error.toResponse()
}
