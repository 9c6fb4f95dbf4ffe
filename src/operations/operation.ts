import type { FidelitySettings } from '../contract/fidelity.js'
import type { OperationId } from '../contract/operation-ids.js'
import type { NewPet } from '../contract/pet.js'
import type { PetRecords } from '../db/pet-records.js'
import type { BodySchema } from '../http/read-json.js'
import type { UrlFields } from '../http/request-url.js'
import type { SandboxRequest, SandboxResponse } from '../http/types.js'
import type { Violation } from '../validation/answer-rules.js'

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
  /** The most pets a session holds (accounts, contract §22: 10,000); undefined: no cap but the id space. */
  maxPets?: number | undefined
}

/** Everything an operation needs to answer one request. */
export interface OperationContext {
  request: SandboxRequest
  url: UrlFields
  /** Path parameters, still percent-encoded, e.g. `{ petId: '42' }`. */
  params: Readonly<Record<string, string>>
  /** The pets this request reads and writes (chosen by the state seam). */
  store: PetRecords
  /** The id of the session the request belongs to (an added operation keeps its own records per session). */
  session: string
  /** The moment of the request by the sandbox clock, epoch ms. */
  now: number
  settings: SandboxSettings
}

/** What an operation's `headers` sees: known before the request is authenticated. */
export type OperationHeadersContext = Pick<OperationContext, 'url' | 'settings'>

/** The methods an operation can have. */
export type OperationMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/**
 * One operation of a sandbox's route table: one of the contract's, in a file
 * of its own, or one added at the sandbox's creation (decision 0042: own
 * handlers, an OpenAPI document's operations). Its method and path template
 * (below the base path), how it answers, and the headers every response of
 * it carries, errors included.
 */
export interface Operation {
  /** The contract's `listPets`…, or an added one's (`GET /categories`, an `operationId`). */
  id: OperationId
  method: OperationMethod
  /** The path template as the OpenAPI document writes it, below the base path, e.g. `/pets/{petId}`. */
  path: string
  run(ctx: OperationContext): SandboxResponse | Promise<SandboxResponse>
  headers?(ctx: OperationHeadersContext): Record<string, string>
  /**
   * Who may call it: `key` (the default: 401 without a valid key, the key's
   * quota and rate-limit headers) or `public` (no key, no quota; the session
   * selector, the scenario and the journal still apply). Added operations only.
   */
  access?: 'key' | 'public'
  /**
   * The statuses it answers with, for the report's coverage and the answer
   * validator. The contract's operations have theirs in
   * src/validation/allowed-statuses.ts; an added one without this is not
   * checked there, and its coverage lists the statuses the sandbox itself
   * may give it (401, 429, 500, 503) and those it met.
   */
  statuses?: readonly number[]
  /**
   * The id its answer is journaled under, when one operation answers for
   * several (own handlers without a route, decision 0042): null for none.
   * Without it, `id`.
   */
  idOf?(response: SandboxResponse): OperationId | null
  /**
   * Checks an answer of it that the sandbox did not make (upstream mode,
   * contract §17 and §20): the operations of an OpenAPI document check theirs
   * against the document. Empty when it keeps it.
   */
  checkAnswer?(answer: { method: string; status: number; body: string | null }): Violation[]
}

/**
 * Declares an operation (a typed identity, so each file reads as data).
 *
 * @example
 * export const listPets = defineOperation({ id: 'listPets', method: 'GET', path: '/pets', run })
 */
export const defineOperation = (operation: Operation): Operation => operation
