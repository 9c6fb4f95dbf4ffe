import type { SandboxClock } from '../clock/clock.js'
import type { ScenarioRegistry } from '../scenarios/scenario-registry.js'
import type { SharedState } from '../state/shared-store.js'
import type { SessionControls } from './session-controls.js'

const refuse = (what: string): never => {
  throw new TypeError(
    `Failed to ${what}: this sandbox keeps its state in a shared store (the store option), which answers asynchronously. Use the control API (/__sandbox) or \`await (await sandbox.state.session(id))\` instead.`,
  )
}

/**
 * The synchronous controls of a sandbox on a shared store (Redis): they
 * cannot read Redis synchronously, so each one throws a TypeError pointing to
 * the control API and `sandbox.state`. What needs no state works: `ready`,
 * `reset()` (asynchronous anyway), listing and registering scenarios.
 * See docs/decisions/0009-redis-shared-state.md.
 *
 * @example
 * const own = createSharedStoreControls({ id: 'default', state, scenarios })
 */
export const createSharedStoreControls = (input: {
  id: string
  state: SharedState
  scenarios: ScenarioRegistry
}): SessionControls => {
  const { id, state, scenarios } = input
  const clock: SandboxClock = {
    now: () => refuse('read the clock'),
    set: () => refuse('set the clock'),
    advance: () => refuse('advance the clock'),
    useRealTime: () => refuse('set the clock'),
    get frozen(): boolean {
      return refuse('read the clock')
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
      list: () => refuse('list the keys'),
    },
    clock,
    scenario: {
      get: () => refuse('read the scenario'),
      set: () => refuse('set the scenario'),
      list: () => scenarios.list().map(({ name, description }) => ({ name, description })),
      register: (scenario) => scenarios.register(scenario),
    },
    journal: {
      list: () => refuse('list the journal'),
      clear: () => refuse('clear the journal'),
    },
    db: {
      get pets(): never {
        return refuse('read the pets')
      },
    },
  }
}
