import type { ApiError } from '../core/api-error.js'
import type { SandboxClock } from '../core/clock.js'
import type { SandboxRequest, SandboxResponse, TransportFault } from '../core/types.js'
import type { OperationId } from '../handlers/operation.js'

/** What a scenario sees of the request it may change, after authentication and rate limiting. */
export interface ScenarioContext {
  operationId: OperationId
  request: SandboxRequest
  url: URL
  clock: SandboxClock
}

/**
 * A named behaviour of the sandbox. Scenarios are data: the pipeline asks each
 * hook in turn, and no handler branches on a scenario's name.
 * TODO(issue 4): stores, delays, faults, seeded randomness.
 */
export interface Scenario {
  /** Lower-case name used in `__scenario=` and `X-Sandbox-Scenario:`. */
  name: string
  /** One sentence for the README, the dashboard and `unknown_scenario` messages. */
  description: string
  /** Answer instead of the operation: return an ApiError or a response, or undefined to go on. */
  respond?: (ctx: ScenarioContext) => ApiError | SandboxResponse | undefined
  /** Wait this long before answering. */
  delayMs?: (ctx: ScenarioContext) => number
  /** Fail the connection instead of answering. */
  fault?: TransportFault
}

const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/

/**
 * Declares a scenario, checking its shape once.
 *
 * @example
 * export const maintenance = defineScenario({
 *   name: 'maintenance',
 *   description: 'Every request answers 503.',
 *   respond: () => new ApiError('service_unavailable', 'Down for maintenance.'),
 * })
 */
export const defineScenario = <const S extends Scenario>(scenario: S): S => {
  if (!NAME.test(scenario.name)) {
    throw new TypeError(
      `Failed to define scenario "${scenario.name}": a name is 1-64 characters of a-z, 0-9 and "-", starting with a letter or digit.`,
    )
  }
  if (scenario.description.trim() === '') {
    throw new TypeError(
      `Failed to define scenario "${scenario.name}": give it a description; users see it in the README and in error messages.`,
    )
  }
  return scenario
}
