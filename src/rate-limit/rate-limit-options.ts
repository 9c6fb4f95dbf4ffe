import { BAN_DEFAULTS } from '../contract/plans.js'

/**
 * The `rateLimit` option of `createSandbox`: when a key that keeps sending
 * while limited is banned, and for how long. Quotas themselves come from the
 * key's plan.
 *
 * @example
 * createSandbox({ rateLimit: { banAfter: 5, banMinutes: 1 } })
 */
export interface RateLimitOptions {
  /**
   * How many rejected (429) requests a key may send within the window that
   * is exhausted before the next one bans it (default 20). `Infinity` never bans.
   */
  banAfter?: number
  /** How long a ban lasts, in whole minutes (default 15). */
  banMinutes?: number
}

/** The options with their defaults applied and checked. */
export interface ResolvedRateLimitOptions {
  banAfter: number
  banMs: number
}

/**
 * Applies the defaults and fails fast on a bad value.
 *
 * @example
 * resolveRateLimitOptions({ banMinutes: 1 }) // { banAfter: 20, banMs: 60_000 }
 */
export const resolveRateLimitOptions = (
  options: RateLimitOptions = {},
): ResolvedRateLimitOptions => {
  const banAfter = options.banAfter ?? BAN_DEFAULTS.banAfter
  const banMinutes = options.banMinutes ?? BAN_DEFAULTS.banMinutes
  if (banAfter !== Number.POSITIVE_INFINITY && !(Number.isSafeInteger(banAfter) && banAfter >= 0)) {
    throw new TypeError(
      `Failed to configure the rate limiter: rateLimit.banAfter must be a whole number >= 0, or Infinity to never ban, got ${String(banAfter)}. Fix the rateLimit option.`,
    )
  }
  if (!(Number.isSafeInteger(banMinutes) && banMinutes >= 1 && banMinutes <= 10_080)) {
    throw new TypeError(
      `Failed to configure the rate limiter: rateLimit.banMinutes must be a whole number from 1 to 10080 (a week), got ${String(banMinutes)}. Fix the rateLimit option.`,
    )
  }
  return { banAfter, banMs: banMinutes * 60_000 }
}
