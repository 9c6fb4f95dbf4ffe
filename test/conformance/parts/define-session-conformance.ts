import { defineConformanceSuite, type PartName } from './define-conformance-suite.js'
import { defineSessionIsolationSuite } from './session-isolation.suite.js'
import type { ConformanceControls, ConformanceTarget } from './target.js'

/** The session the second pass of the suite runs in. */
export const CONFORMANCE_SESSION = 'conformance-s1'

/**
 * The parts run a second time inside a session. All of them: measured, the
 * second pass costs about as much as the first (see the README's Sessions
 * section); narrow this list if CI time ever matters more.
 */
export const SESSION_PARTS: readonly PartName[] = [
  'auth',
  'list',
  'create',
  'get',
  'errors',
  'rateLimits',
  'scenarios',
]

/**
 * Contract §12 in one runtime: the conformance suite again inside session
 * `conformance-s1` (every request carries `X-Sandbox-Session`, the controls
 * act on that session), then the isolation tests across sessions.
 *
 * @example
 * defineConformanceSuite(() => target)
 * defineSessionConformance(() => target)
 */
export const defineSessionConformance = (getTarget: () => ConformanceTarget): void => {
  defineConformanceSuite(() => withDefaultFollowing(getTarget()), {
    title: `conformance in session ${CONFORMANCE_SESSION}`,
    parts: SESSION_PARTS,
  })
  defineSessionIsolationSuite(getTarget)
}

/**
 * The target in `conformance-s1`, with `default` following its clock, scenario
 * and resets: a request without a valid key is answered in `default`
 * (decision 0026), so the suite's unauthenticated requests see what its
 * controls set there too. Keys stay the session's own.
 */
const withDefaultFollowing = (target: ConformanceTarget): ConformanceTarget => {
  const session = target.session(CONFORMANCE_SESSION)
  const both =
    <A extends unknown[]>(pick: (controls: ConformanceControls) => (...args: A) => Promise<void>) =>
    async (...args: A): Promise<void> => {
      await pick(session.controls)(...args)
      await pick(target.controls)(...args)
    }
  return {
    ...session,
    controls: {
      ...session.controls,
      reset: both((c) => c.reset),
      setClock: both((c) => c.setClock),
      advanceClock: both((c) => c.advanceClock),
      setScenario: both((c) => c.setScenario),
    },
  }
}
