import type { ApiKeyInfo } from '../../auth/key-registry.js'
import type { Timeline } from '../../scenarios/timeline.js'
import type { Emitter } from '../emitter.js'
import type { SandboxEvents } from '../sandbox-events.js'
import type { RedisConnection } from './redis-connection.js'

/** What every part of the Redis state (sessions, limits, pets, journal) is given: settings resolved once. */
export interface RedisStateContext {
  readonly connection: RedisConnection
  readonly events: Emitter<SandboxEvents>
  /** Emits an event without waiting for its listeners (a failing one is told to `onError`). */
  emit<K extends keyof SandboxEvents>(type: K, event: SandboxEvents[K]): void
  readonly onError: (error: unknown) => void
  readonly baseKeys: ReadonlyMap<string, ApiKeyInfo>
  /** Real time: idle times and the clocks' source. */
  readonly realNow: () => number
  readonly seed: number
  /** The seeded pets' fingerprint: instances that share a store must agree on it. */
  readonly fingerprint: string
  readonly petCount: number
  readonly journalSize: number
  readonly startScenario: string
  readonly startTimeline: Timeline | undefined
  readonly sessionTtlMs: number
  readonly maxSessions: number
  readonly banAfter: number
  readonly banMs: number
  /** Anonymous buckets kept per session (the least recently used go first). */
  readonly maxAnonymousBuckets: number
}
