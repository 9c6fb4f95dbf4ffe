import type { PetStore } from '../../db/pet-store.js'
import type { SandboxCore } from '../../sandbox/create-sandbox-core.js'
import type { SessionState } from '../../state/sandbox-state.js'

/**
 * What the dashboard page shows of one session, read through the state seam
 * (awaited), as the synchronous controls `renderControlPage` reads: so the
 * page works on a shared store (Redis) too, where the synchronous controls
 * throw (issue 13).
 *
 * @example
 * const html = renderControlPage(await pageView(sandbox, session), { apiBase })
 */
export const pageView = async (
  sandbox: SandboxCore,
  session: SessionState,
): Promise<SandboxCore> => {
  const [sticky, keys, clock, journal, count] = await Promise.all([
    session.sticky(),
    session.listKeys(),
    session.clock(),
    session.listJournal(),
    session.petCount(),
  ])
  const defaultScenario = sandbox.scenarios.require('default')
  const store = await session.store(defaultScenario)
  const newest = await store.list({ limit: 10, afterId: Math.max(0, count - 10) })
  return {
    ...sandbox,
    scenario: { ...sandbox.scenario, get: () => sticky },
    keys: { ...sandbox.keys, list: () => keys },
    // Not spread: the shared store's clock throws on every read.
    clock: {
      now: () => clock.now,
      frozen: clock.frozen,
      set: sandbox.clock.set,
      advance: sandbox.clock.advance,
      useRealTime: sandbox.clock.useRealTime,
    },
    journal: { ...sandbox.journal, list: () => journal },
    db: { pets: { count, list: () => newest } as unknown as PetStore },
  }
}
