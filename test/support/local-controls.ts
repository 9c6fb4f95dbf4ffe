import { isPlanName, type SessionControls } from '../../src/index.js'
import type { ConformanceControls } from '../conformance/parts/target.js'

/**
 * The conformance controls of a sandbox living in this process (in-process
 * MSW, the Playwright entry): direct calls, no HTTP. Pass the sandbox for its
 * `default` session, or `sandbox.session(id)` for another.
 */
export const localControls = (sandbox: SessionControls<string>): ConformanceControls => ({
  reset: () => sandbox.reset(),
  setClock: async (time) => sandbox.clock.set(time),
  advanceClock: async (ms) => sandbox.clock.advance(ms),
  createKey: async ({ plan, ...limits }) => {
    if (!isPlanName(plan)) throw new TypeError(`Failed to create a key: unknown plan "${plan}".`)
    return sandbox.keys.create({ plan, ...limits }).key
  },
  revokeKey: async (key) => {
    sandbox.keys.revoke(key)
  },
  setScenario: async (name) => sandbox.scenario.set(name),
  journal: async () =>
    sandbox.journal.list().map(({ operation, status }) => ({ operation, status })),
})
