/**
 * Every numeric limit of the contract, written once. Schemas, handlers, the
 * OpenAPI document test and the docs read them from here.
 */
export const LIMITS = {
  /** Largest integer a JavaScript client round-trips exactly (2^53 - 1). */
  maxId: Number.MAX_SAFE_INTEGER,
  nameMinCodePoints: 1,
  nameMaxCodePoints: 100,
  listLimitMin: 1,
  listLimitMax: 100,
  listLimitDefault: 20,
  /** Request bodies above this many bytes are answered 413 `payload_too_large`. */
  maxBodyBytes: 64 * 1024,
} as const
