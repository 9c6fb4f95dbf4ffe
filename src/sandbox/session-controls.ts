import { type ApiKeyInfo, type CreateKeyOptions, KeyOptionError } from '../auth/key-registry.js'
import type { SandboxClock } from '../clock/clock.js'
import type { PetStore } from '../db/pet-store.js'
import { ApiError } from '../http/api-error.js'
import type { JournalEntry } from '../journal/journal.js'
import type { Scenario } from '../scenarios/define-scenario.js'
import type { ScenarioRegistry } from '../scenarios/scenario-registry.js'
import type { MemorySessionState, MemoryState } from '../state/memory-state.js'
import { SESSION_ID } from '../state/sandbox-state.js'

/** A scenario as the controls list it. */
export interface ScenarioInfo {
  name: string
  description: string
}

/** The controls of one session: what a test steers. */
export interface SessionControls {
  /** The session's id (`default` for the sandbox's own controls). */
  readonly id: string
  /** Resolves once the session's pets are in place. Requests wait for it by themselves. */
  readonly ready: Promise<void>
  /** Back to the seeded pets, the start scenario, the real clock, fresh quotas and bans, no run-time keys, an empty journal. */
  reset(): Promise<void>
  readonly keys: {
    /**
     * Creates a run-time key in this session, or in the one `session` names:
     * its requests always land in that session.
     */
    create(options: CreateKeyOptions & { session?: string | undefined }): ApiKeyInfo
    /** Revokes a key in this session (demo keys too) until the next reset; false for an unknown key. */
    revoke(key: string): boolean
    list(): ApiKeyInfo[]
  }
  /** This session's clock. */
  readonly clock: SandboxClock
  readonly scenario: {
    /** The sticky scenario's name. */
    get(): string
    /** Makes a scenario sticky in this session; throws for an unknown name. */
    set(name: string): void
    list(): ScenarioInfo[]
    /** Registers a scenario for the whole sandbox (every session). */
    register(scenario: Scenario): void
  }
  readonly journal: {
    list(): JournalEntry[]
    clear(): void
  }
  /** The session's own pets (the store of the default scenario). */
  readonly db: { readonly pets: PetStore }
}

const report = (promise: Promise<void>, onError: (error: unknown) => void): void => {
  promise.catch(onError)
}

/**
 * The controls of a session over the state, emitting the sandbox's events
 * (extensions follow those; nothing wraps these methods).
 *
 * @example
 * const controls = createSessionControls({ state, scenarios, onError, resolve: () => state.session('w1') })
 */
export const createSessionControls = (input: {
  id: string
  state: MemoryState
  scenarios: ScenarioRegistry
  onError: (error: unknown) => void
  /** The session behind the controls (created again if it was dropped meanwhile). */
  resolve: () => MemorySessionState
}): SessionControls => {
  const { id, state, scenarios, onError, resolve } = input
  const emitClock = (session: MemorySessionState): void =>
    report(
      state.events.emit('clock', {
        session: id,
        now: session.clock.now(),
        frozen: session.clock.frozen,
      }),
      onError,
    )
  const clock: SandboxClock = {
    now: () => resolve().clock.now(),
    set(time) {
      const session = resolve()
      session.clock.set(time)
      emitClock(session)
    },
    advance(ms) {
      const session = resolve()
      session.clock.advance(ms)
      emitClock(session)
    },
    useRealTime() {
      const session = resolve()
      session.clock.useRealTime()
      emitClock(session)
    },
    get frozen() {
      return resolve().clock.frozen
    },
  }
  return {
    id,
    get ready() {
      return resolve().ready()
    },
    reset: () => resolve().reset(),
    keys: {
      create({ session: target = id, ...options }) {
        if (typeof target !== 'string' || !SESSION_ID.test(target)) {
          throw new KeyOptionError(
            `Failed to create a key: session "${String(target)}" is not a session id (1-64 characters of A-Z a-z 0-9 . _ -).`,
          )
        }
        const info = (target === id ? resolve() : state.session(target)).keys.create(options)
        report(state.events.emit('keys', { session: target, type: 'create', key: info }), onError)
        return info
      },
      revoke(key) {
        const keys = resolve().keys
        const info = keys.lookup(key)
        if (info === undefined || !keys.revoke(key)) return false
        report(state.events.emit('keys', { session: id, type: 'revoke', key: info }), onError)
        return true
      },
      list: () => resolve().keys.list(),
    },
    clock,
    scenario: {
      get: () => resolve().sticky(),
      set(name) {
        try {
          scenarios.require(name)
        } catch (error) {
          if (!(error instanceof ApiError)) throw error
          throw new TypeError(`Failed to set the scenario: ${error.message}`, { cause: error })
        }
        resolve().setSticky(name)
        report(state.events.emit('scenario', { session: id, name }), onError)
      },
      list: () => scenarios.list().map(({ name, description }) => ({ name, description })),
      register: (scenario) => scenarios.register(scenario),
    },
    journal: {
      list: () => resolve().journal.list(),
      clear: () => resolve().journal.clear(),
    },
    db: {
      get pets() {
        return resolve().pets
      },
    },
  }
}
