import type { ErrorCode } from './error-codes.js'
import { LIMITS } from './limits.js'
import type { PetStatus } from './pet.js'

/**
 * The fidelity settings of contract §16: each point where the spec is silent
 * and the sandbox guesses, as a setting, so that the sandbox can be made to
 * answer like a given deployment (`petstore-sandbox verify --emit-config`).
 * The defaults are the guesses of contract §4 and §5.
 */
export interface FidelitySettings {
  /** `limit` out of 1-100 or not an integer: 400 `invalid_parameter`, or clamp (not an integer: 20). */
  limitOutOfRange: 'reject' | 'clamp'
  /** A `status` filter that is not a PetStatus: 400, the unfiltered list, or no pets. */
  unknownStatusFilter: 'reject' | 'ignore' | 'empty'
  /** The `status` of a pet created without one. */
  defaultStatus: PetStatus
  /** The longest `name` (Unicode code points, trimmed), 1 to 10,000. */
  nameMaxLength: number
  /** Unknown NewPet fields: dropped, or 400 `validation_failed` naming each. */
  unknownFields: 'ignore' | 'reject'
  /** Paging of listPets: an opaque `cursor`, a numeric `offset`, or only the first page. */
  pagination: 'cursor' | 'offset' | 'none'
  /** The header carrying the number of matching pets, or false for none. */
  totalCountHeader: string | false
  /** This contract's error code to the deployment's, e.g. `{ pet_not_found: 'not_found' }`. */
  errorCodes: Readonly<Partial<Record<ErrorCode, string>>>
  /** The largest request body in bytes, 1,024 to 10,485,760; above it 413. */
  maxBodyBytes: number
}

/** The allowed values of each enumerated setting, written once (options, flags, config, docs). */
export const FIDELITY_CHOICES = {
  limitOutOfRange: ['reject', 'clamp'],
  unknownStatusFilter: ['reject', 'ignore', 'empty'],
  unknownFields: ['ignore', 'reject'],
  pagination: ['cursor', 'offset', 'none'],
} as const

/** Bounds of the numeric settings. */
export const FIDELITY_BOUNDS = {
  nameMaxLength: { min: 1, max: 10_000 },
  maxBodyBytes: { min: 1_024, max: 10 * 1024 * 1024 },
} as const

/** Today's behaviour: the defaults of every setting (contract §16). */
export const FIDELITY_DEFAULTS: Readonly<FidelitySettings> = {
  limitOutOfRange: 'reject',
  unknownStatusFilter: 'reject',
  defaultStatus: 'available',
  nameMaxLength: LIMITS.nameMaxCodePoints,
  unknownFields: 'ignore',
  pagination: 'cursor',
  totalCountHeader: 'X-Total-Count',
  errorCodes: {},
  maxBodyBytes: LIMITS.maxBodyBytes,
}

/** The settings' names, in the order of contract §16. */
export const FIDELITY_SETTING_NAMES = Object.keys(FIDELITY_DEFAULTS) as (keyof FidelitySettings)[]
