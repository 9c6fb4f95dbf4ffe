import type { Awaitable } from '../http/awaitable.js'
import { singleParam } from '../http/query.js'
import { readHeaderText } from '../http/read-header-text.js'
import type { UrlFields } from '../http/request-url.js'
import type { SandboxRequest } from '../http/types.js'
import type { Scenario } from '../scenarios/define-scenario.js'
import type { ScenarioRegistry } from '../scenarios/scenario-registry.js'
import { type PhaseAt, phaseAt, type Sticky } from '../scenarios/timeline.js'
import type { SessionState } from '../state/sandbox-state.js'

/**
 * The scenario a request names itself: the `__scenario` flag, else the
 * `X-Sandbox-Scenario` header; undefined when it names none.
 *
 * @example
 * requestedScenario(url, request.headers) // 'slow' for ?__scenario=slow
 */
export const requestedScenario = (
  url: UrlFields,
  headers: SandboxRequest['headers'],
): string | undefined =>
  singleParam(url.searchParams, '__scenario') ?? headers['x-sandbox-scenario']?.trim()

/**
 * Stage 5: the scenario that answers; 400 `unknown_scenario` listing the valid names.
 * A name the registry lacks is read again as the client wrote it (a header's
 * UTF-8 bytes arrive one character per byte), so `X-Sandbox-Scenario: ✓` is
 * named `"✓"` in the message, not `"â"`: the error path only.
 *
 * @example
 * const scenario = selectScenario(scenarios, 'slow')
 */
export const selectScenario = (scenarios: ScenarioRegistry, name: string): Scenario => {
  try {
    return scenarios.require(name)
  } catch (error) {
    const written = readHeaderText(name)
    if (written === name) throw error
    return scenarios.require(written)
  }
}

/** A timeline's phase and the scenario it gives. */
export interface PhaseChoice {
  scenario: Scenario
  phase: PhaseAt
}

/**
 * Where a timeline stands for this request (contract §19): the sticky
 * timeline (`named` undefined, `sticky` a timeline) from the moment it was
 * set; a timeline scenario named per request, by the caller's key or as the
 * start scenario (`named` that scenario) from the first request of the
 * session that met it. Asked only when a timeline is in play.
 *
 * @example
 * const { scenario, phase } = await choosePhase({ scenarios, session, named: outage, sticky, now })
 */
export const choosePhase = (input: {
  scenarios: ScenarioRegistry
  session: SessionState
  /** The timeline scenario named, or undefined for the sticky timeline. */
  named: Scenario | undefined
  sticky: Sticky
  now: number
}): Awaitable<PhaseChoice> => {
  const { scenarios, named, now } = input
  const pick = (phase: PhaseAt): PhaseChoice => ({
    scenario: scenarios.require(phase.scenario),
    phase,
  })
  if (named === undefined) {
    if (typeof input.sticky === 'string')
      throw new TypeError('Failed to choose a phase: the sticky scenario is no timeline.')
    return pick(phaseAt(input.sticky, now))
  }
  const timeline = named.timeline
  if (timeline === undefined)
    throw new TypeError(`Failed to choose a phase: "${named.name}" is no timeline.`)
  const at = (since: number) =>
    pick(
      phaseAt(
        { name: named.name, phases: timeline.phases, repeat: timeline.repeat === true, since },
        now,
      ),
    )
  const since = input.session.timelineStart(named.name, now)
  return since instanceof Promise ? since.then(at) : at(since)
}
