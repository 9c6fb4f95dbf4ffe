import type { ApiKeyInfo } from '../auth/key-registry.js'
import type { SandboxClock } from '../clock/clock.js'
import type { ListPetsQuery } from '../db/pet-records.js'
import type { PetStore } from '../db/pet-store.js'
import type { OpenApiOperations } from '../openapi/create-openapi-operations.js'
import type { RouteTable } from '../operations/route-table.js'
import type { ScenarioRegistry } from '../scenarios/scenario-registry.js'
import type { SharedState } from '../state/shared-store.js'
import { createJournalJudge } from './judge-journal.js'
import type { ModeControls } from './mode-controls.js'
import { timelineStatus } from './resolve-sticky.js'
import type { SessionControls } from './session-controls.js'

const refuse = (what: string): never => {
  throw new TypeError(
    `Failed to ${what}: this sandbox keeps its state in a shared store (the store option), which answers asynchronously. Use the control API (/__sandbox) or \`await (await sandbox.state.session(id))\` instead.`,
  )
}

/**
 * The synchronous controls of a sandbox on a shared store (Redis). Redis
 * cannot be read or written synchronously, so:
 * - every change (keys, clock, scenario, journal) throws a TypeError pointing
 *   to the control API and `sandbox.state`;
 * - reads (`scenario.get`, `clock.now`/`frozen`, `keys.list`, `db.pets.list`)
 *   answer this instance's last known view, which every request and control
 *   call through this instance refreshes, and may be behind other instances:
 *   good for a display (the dashboard), not for a test's assertions;
 * - `ready`, `reset()` (asynchronous anyway), listing and registering scenarios work.
 * See docs/decisions/0014-redis-shared-state.md.
 *
 * @example
 * const own = createSharedStoreControls({ id: 'default', state, scenarios, fallback, mode })
 */
export const createSharedStoreControls = (input: {
  id: string
  state: SharedState
  scenarios: ScenarioRegistry
  /** What a session holds before this instance has seen it. */
  fallback: { startScenario: string; baseKeys: ReadonlyMap<string, ApiKeyInfo>; now: () => number }
  /** The session's mode, held by this instance (contract §17). */
  mode: ModeControls
  /** The sandbox's operations (decision 0042); default the contract's. */
  routes?: RouteTable | undefined
  /** The `openapi` option's operations, loading (the pact's pre-check reads their document). */
  openapi?: Promise<OpenApiOperations> | undefined
}): SessionControls<string> => {
  const { id, state, scenarios, fallback, mode } = input
  const known = () => state.peek(id)
  // The store's journal holds every instance's requests: judged asynchronously, through the seam.
  const judge = createJournalJudge(
    id,
    async () => {
      await state.ready
      return (await state.session(id)).listJournal()
    },
    input.routes,
    input.openapi,
  )
  const clock: SandboxClock = {
    now: () => known()?.frozen ?? fallback.now(),
    set: () => refuse('set the clock'),
    advance: () => refuse('advance the clock'),
    useRealTime: () => refuse('set the clock'),
    get frozen(): boolean {
      return known()?.frozen !== undefined
    },
  }
  return {
    id,
    get ready() {
      return state.ready
    },
    reset: async () => {
      await state.ready
      await (await state.session(id)).reset()
    },
    keys: {
      create: () => refuse('create a key'),
      revoke: () => refuse('revoke a key'),
      list: () => known()?.keys ?? [...fallback.baseKeys.values()],
    },
    clock,
    scenario: {
      get: () => known()?.sticky ?? fallback.startScenario,
      set: () => refuse('set the scenario'),
      timeline: () => {
        const timeline = known()?.timeline
        return timeline === undefined ? undefined : timelineStatus(timeline, clock.now())
      },
      list: () => scenarios.list().map(({ name, description }) => ({ name, description })),
      register: (scenario) => scenarios.register(scenario),
    },
    journal: {
      list: () => refuse('list the journal'),
      clear: () => refuse('clear the journal'),
      // GET /__sandbox/requests.har reads the journal through the state seam instead.
      toHAR: () => refuse('export the journal as HAR'),
    },
    db: {
      // Read-only, as last read by this instance (the dashboard's list).
      get pets(): PetStore {
        const pets = known()?.pets
        return {
          get count() {
            return pets?.count ?? 0
          },
          get: (petId: number) => pets?.get(petId),
          list: (query: ListPetsQuery) =>
            pets?.list(query) ?? { pets: [], total: 0, nextAfterId: undefined },
          create: () => refuse('create a pet'),
          load: () => refuse('load pets'),
          snapshot: () => refuse('snapshot the pets'),
          subscribe: () => refuse('follow the pets'),
        } as unknown as PetStore
      },
    },
    requests: { find: judge.find, expect: judge.expect },
    report: judge.report,
    coverage: judge.coverage,
    pact: judge.pact,
    mode,
  }
}
