import { ApiError } from '../http/api-error.js'
import type { ScenarioRegistry } from '../scenarios/scenario-registry.js'
import {
  INLINE_TIMELINE,
  type PhaseAt,
  phaseAt,
  type Sticky,
  type TimelinePhase,
  timelineProblems,
} from '../scenarios/timeline.js'

/** A timeline to make sticky: phases `{ scenario, forMs }`, the last holding unless `repeat`. */
export interface TimelineSetting {
  timeline: readonly TimelinePhase[]
  /** Start over after the last phase (default false: the last phase holds). */
  repeat?: boolean | undefined
}

/** Where the sticky timeline stands, as the controls and the control API show it. */
export interface TimelineStatus {
  /** The timeline's name (`outage`, or `timeline` for one set inline). */
  name: string
  phases: TimelinePhase[]
  repeat: boolean
  /** When it started, ISO time by the session's clock. */
  startedAt: string
  /** The phase now, and the time left in it (null: the last phase holds for good). */
  phase: PhaseAt
}

/**
 * The sticky value a scenario name or a timeline makes, started at `now`:
 * a name as it is, a timeline scenario's name (`outage`) or an inline
 * timeline as a timeline from `now`. 400 `unknown_scenario` when the only
 * problem is an unknown name (details name the field), else 400
 * `validation_failed` naming every bad field.
 *
 * @example
 * resolveSticky(scenarios, { timeline: [{ scenario: 'unavailable', forMs: 5_000 }] }, now)
 */
export const resolveSticky = (
  scenarios: ScenarioRegistry,
  value: string | TimelineSetting,
  now: number,
): Sticky => {
  if (typeof value === 'string') {
    const timeline = scenarios.require(value).timeline
    if (timeline === undefined) return value
    return { name: value, phases: timeline.phases, repeat: timeline.repeat === true, since: now }
  }
  const phaseOk = (name: string): boolean => {
    const scenario = scenarios.get(name)
    return scenario !== undefined && scenario.timeline === undefined
  }
  const problems = timelineProblems(value.timeline, phaseOk)
  if (value.repeat !== undefined && typeof value.repeat !== 'boolean')
    problems.push({ field: 'repeat', message: 'must be true or false' })
  if (problems.length > 0) {
    const valid = scenarios
      .list()
      .filter((s) => s.timeline === undefined)
      .map((s) => s.name)
      .join(', ')
    const unknown = problems.every((p) => p.message.includes('is not a scenario a phase can be'))
    throw new ApiError(
      unknown ? 'unknown_scenario' : 'validation_failed',
      `The timeline is not valid: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}.${unknown || problems.some((p) => p.field.endsWith('.scenario')) ? ` A phase is one of: ${valid}.` : ''}`,
      { details: problems },
    )
  }
  return {
    name: INLINE_TIMELINE,
    phases: value.timeline.map(({ scenario, forMs }) => ({ scenario, forMs })),
    repeat: value.repeat === true,
    since: now,
  }
}

/**
 * Where a sticky timeline stands at `now`; undefined for a plain scenario.
 *
 * @example
 * timelineStatus(await session.sticky(), now)?.phase.leftMs
 */
export const timelineStatus = (sticky: Sticky, now: number): TimelineStatus | undefined =>
  typeof sticky === 'string'
    ? undefined
    : {
        name: sticky.name,
        phases: sticky.phases.map(({ scenario, forMs }) => ({ scenario, forMs })),
        repeat: sticky.repeat,
        startedAt: new Date(sticky.since).toISOString(),
        phase: phaseAt(sticky, now),
      }
