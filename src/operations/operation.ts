import type { FidelitySettings } from '../contract/fidelity.js'
import type { OperationId } from '../contract/operation-ids.js'
import type { NewPet } from '../contract/pet.js'
import type { PetRecords } from '../db/pet-records.js'
import type { BodySchema } from '../http/read-json.js'
import type { UrlFields } from '../http/request-url.js'
import type { SandboxRequest, SandboxResponse } from '../http/types.js'

export type { OperationId }

/** The sandbox's settings, resolved once from its options; operations and scenarios read them. */
export interface SandboxSettings {
  /** Path prefix of the API, e.g. `/v1`. */
  basePath: string
  /** `Deprecation` header value of getPet (RFC 9745), e.g. `@1767225600`. */
  deprecation: string
  /** Removal date of getPet, epoch ms. From then on it answers 410. */
  sunsetAt: number
  /** How long a ban lasts (the `rateLimit.banMinutes` option), in ms; the `banned` scenario mirrors it. */
  banMs: number
  /** The fidelity settings of contract §16, resolved (defaults: the contract's guesses). */
  fidelity: Readonly<FidelitySettings>
  /** True when `fidelity.errorCodes` renames any code (the pipeline skips the rename otherwise). */
  renamesErrorCodes: boolean
  /** createPet's body schema under the fidelity settings, built once. */
  newPetSchema: BodySchema<NewPet>
}

/** Everything an operation needs to answer one request. */
export interface OperationContext {
  request: SandboxRequest
  url: UrlFields
  /** Path parameters, still percent-encoded, e.g. `{ petId: '42' }`. */
  params: Readonly<Record<string, string>>
  /** The pets this request reads and writes (chosen by the state seam). */
  store: PetRecords
  /** The moment of the request by the sandbox clock, epoch ms. */
  now: number
  settings: SandboxSettings
}

/** What an operation's `headers` sees: known before the request is authenticated. */
export type OperationHeadersContext = Pick<OperationContext, 'url' | 'settings'>

/**
 * One operation of the contract, in a file of its own: its method and path
 * template (below the base path), how it answers, and the headers every
 * response of it carries, errors included.
 */
export interface Operation {
  id: OperationId
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  /** The path template as the OpenAPI document writes it, e.g. `/pets/{petId}`. */
  path: string
  run(ctx: OperationContext): SandboxResponse | Promise<SandboxResponse>
  headers?(ctx: OperationHeadersContext): Record<string, string>
}

/**
 * Declares an operation (a typed identity, so each file reads as data).
 *
 * @example
 * export const listPets = defineOperation({ id: 'listPets', method: 'GET', path: '/pets', run })
 */
export const defineOperation = (operation: Operation): Operation => operation
