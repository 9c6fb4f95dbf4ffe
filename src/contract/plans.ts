/**
 * Plans and their rate limits (spec "Limits", contract §3). Enterprise is custom
 * per key; these are its defaults.
 */
export const PLAN_NAMES = ['free', 'pro', 'business', 'enterprise'] as const
export type PlanName = (typeof PLAN_NAMES)[number]

export interface PlanLimits {
  perMinute: number
  perDay: number
}

export const PLAN_LIMITS: Readonly<Record<PlanName, PlanLimits>> = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1_000, perDay: 100_000 },
  enterprise: { perMinute: 5_000, perDay: 1_000_000 },
}

/**
 * Bans (contract §3): a key that sends more than `banAfter` rejected requests
 * within the exhausted window is banned for `banMinutes`. Both can be changed
 * with the `rateLimit` option of `createSandbox`.
 */
export const BAN_DEFAULTS = { banAfter: 20, banMinutes: 15 } as const

/** The built-in demo keys, one per plan; always present. */
export const DEMO_KEYS: Readonly<Record<string, PlanName>> = {
  'sandbox-free': 'free',
  'sandbox-pro': 'pro',
  'sandbox-business': 'business',
  'sandbox-enterprise': 'enterprise',
}

export const isPlanName = (value: unknown): value is PlanName =>
  typeof value === 'string' && (PLAN_NAMES as readonly string[]).includes(value)
