import type { SandboxClock } from '../core/clock.js'
import type { SandboxRequest, SandboxResponse } from '../core/types.js'
import type { PetStore } from '../db/pet-store.js'

/** Operation ids of the spec. */
export type OperationId = 'listPets' | 'createPet' | 'getPet'

/** Settings the operations read; resolved once from the sandbox options. */
export interface OperationSettings {
  /** Path prefix of the API, e.g. `/v1`. */
  basePath: string
  /** `Deprecation` header value of getPet (RFC 9745), e.g. `@1767225600`. */
  deprecation: string
  /** Removal date of getPet, epoch ms. From then on it answers 410. */
  sunsetAt: number
  /** How long a ban lasts (the `rateLimit.banMinutes` option), in ms; the `banned` scenario mirrors it. */
  banMs: number
}

/** Everything an operation needs to answer one request. */
export interface OperationContext {
  request: SandboxRequest
  url: URL
  /** Path parameters, e.g. `{ petId: '42' }`. */
  params: Readonly<Record<string, string>>
  /** The store this request reads and writes (chosen by the store seam). */
  store: PetStore
  clock: SandboxClock
  settings: OperationSettings
}

/** One operation of the contract: a plain request in, a plain response out. */
export type Operation = (ctx: OperationContext) => SandboxResponse | Promise<SandboxResponse>
