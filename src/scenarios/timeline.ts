import { quoteText } from '../http/quote-text.js'
/** One phase of a timeline: a scenario, answering for `forMs` of the sandbox clock. */
export interface TimelinePhase {
  scenario: string
  forMs: number
}

/** A sequence of scenarios over time: the last phase holds, or the whole repeats. */
export interface Timeline {
  phases: readonly TimelinePhase[]
  /** Start over after the last phase (default false: the last phase holds). */
  repeat?: boolean | undefined
}

/**
 * A timeline made sticky in a session: its name (a registered timeline such
 * as `outage`, or `timeline` for one given inline) and the moment, by the
 * session's clock, it started.
 */
export interface StickyTimeline {
  name: string
  phases: readonly TimelinePhase[]
  repeat: boolean
  /** Epoch ms by the session's clock. */
  since: number
}

/** What a session's sticky scenario is: a scenario's name, or a timeline with its start. */
export type Sticky = string | StickyTimeline

/** The phase a request meets, as journal entries name it. */
export interface PhaseRef {
  /** The timeline's name. */
  timeline: string
  /** 0-based index of the phase. */
  index: number
  /** The scenario of the phase. */
  scenario: string
}

/** Where a timeline stands at a moment. */
export interface PhaseAt extends PhaseRef {
  /** Time left in this phase (ms); null when the last phase holds for good. */
  leftMs: number | null
  /** The round the timeline is in (0 for the first; repeating timelines count up). */
  round: number
}

/** The name an inline timeline (`{"timeline": [...]}`) is sticky under. */
export const INLINE_TIMELINE = 'timeline'

/** At most this many phases in a timeline: a bound on the work and the stored size. */
export const MAX_TIMELINE_PHASES = 32

/** The longest a phase may last: the Date range's span (about 273,790 years). */
export const MAX_PHASE_MS = 8.64e15

/**
 * The name of a sticky scenario, a timeline's included.
 *
 * @example
 * stickyName('slow') // 'slow'
 */
export const stickyName = (sticky: Sticky): string =>
  typeof sticky === 'string' ? sticky : sticky.name

/**
 * The sticky value of a new or reset session: the start scenario's name, or,
 * when it is a timeline, that timeline from `now` (the session's start).
 *
 * @example
 * startSticky('outage', outageScenario.timeline, clock.now())
 */
export const startSticky = (name: string, timeline: Timeline | undefined, now: number): Sticky =>
  timeline === undefined
    ? name
    : { name, phases: timeline.phases, repeat: timeline.repeat === true, since: now }

/**
 * The phase a timeline started at `since` is in at `now`. A moment before the
 * start (a clock set back) is the first phase's beginning.
 *
 * @example
 * phaseAt({ name: 'outage', phases, repeat: false, since: 0 }, 90_000).scenario // 'unavailable'
 */
export const phaseAt = (
  timeline: Pick<StickyTimeline, 'name' | 'phases' | 'repeat' | 'since'>,
  now: number,
): PhaseAt => {
  const { phases } = timeline
  let total = 0
  for (const phase of phases) total += phase.forMs
  let elapsed = Math.max(0, now - timeline.since)
  let round = 0
  if (timeline.repeat && total > 0) {
    round = Math.floor(elapsed / total)
    elapsed -= round * total
  }
  let start = 0
  for (let index = 0; index < phases.length; index += 1) {
    const phase = phases[index] as TimelinePhase
    const end = start + phase.forMs
    // The last phase of a timeline that does not repeat holds for good: no time left to count.
    const holds = !timeline.repeat && index === phases.length - 1
    if (elapsed < end || holds)
      return {
        timeline: timeline.name,
        index,
        scenario: phase.scenario,
        leftMs: holds ? null : end - elapsed,
        round,
      }
    start = end
  }
  const last = phases.length - 1
  return {
    timeline: timeline.name,
    index: last,
    scenario: (phases[last] as TimelinePhase).scenario,
    leftMs: null,
    round,
  }
}

/**
 * The problems of a timeline's phases, each with the field it names
 * (`timeline[1].forMs`): empty when it is sound. `known` says whether a
 * scenario may be a phase (registered and not a timeline itself).
 *
 * @example
 * timelineProblems([{ scenario: 'nope', forMs: 0 }], (n) => n === 'default')
 */
export const timelineProblems = (
  phases: unknown,
  known: (name: string) => boolean,
  field = 'timeline',
): { field: string; message: string }[] => {
  if (!Array.isArray(phases)) return [{ field, message: 'must be a list of phases' }]
  if (phases.length === 0)
    return [{ field, message: 'must hold at least one phase {"scenario": NAME, "forMs": N}' }]
  if (phases.length > MAX_TIMELINE_PHASES)
    return [
      { field, message: `must hold at most ${MAX_TIMELINE_PHASES} phases, got ${phases.length}` },
    ]
  const problems: { field: string; message: string }[] = []
  phases.forEach((phase: unknown, i) => {
    const at = `${field}[${i}]`
    if (typeof phase !== 'object' || phase === null || Array.isArray(phase)) {
      problems.push({ field: at, message: 'must be an object {"scenario": NAME, "forMs": N}' })
      return
    }
    const record = phase as Record<string, unknown>
    for (const name of Object.keys(record))
      if (name !== 'scenario' && name !== 'forMs')
        problems.push({
          field: `${at}.${name}`,
          message: 'is not a field of a phase (its fields are scenario and forMs)',
        })
    const { scenario, forMs } = record
    if (typeof scenario !== 'string' || scenario === '')
      problems.push({ field: `${at}.scenario`, message: 'must be the name of a scenario' })
    else if (!known(scenario))
      problems.push({
        field: `${at}.scenario`,
        message: `${quoteText(scenario)} is not a scenario a phase can be (unknown, or a timeline itself)`,
      })
    if (typeof forMs !== 'number' || !Number.isInteger(forMs) || forMs < 1 || forMs > MAX_PHASE_MS)
      problems.push({
        field: `${at}.forMs`,
        message: `must be a positive whole number of milliseconds (1 to ${MAX_PHASE_MS}), got ${JSON.stringify(forMs) ?? 'nothing'}`,
      })
  })
  return problems
}
