import type { ApiKeyInfo } from '../../auth/key-registry.js'
import { PLAN_LIMITS, type PlanLimits } from '../../contract/plans.js'
import type { BucketSnapshot } from '../../rate-limit/rate-limiter.js'
import type { QuotaGauge } from './dashboard-types.js'
import { maskKey } from './mask-key.js'

const MINUTE = 60_000
const DAY = 86_400_000

const gauge = (input: {
  ref: string
  kind: QuotaGauge['kind']
  label: string
  plan: string
  source?: ApiKeyInfo['source']
  limits: PlanLimits
  bucket: BucketSnapshot | undefined
  now: number
}): QuotaGauge => {
  const { limits, bucket, now } = input
  const minute = {
    used: bucket?.minuteUsed ?? 0,
    limit: limits.perMinute,
    resetsAt: (Math.floor(now / MINUTE) + 1) * MINUTE,
  }
  const day = {
    used: bucket?.dayUsed ?? 0,
    limit: limits.perDay,
    resetsAt: (Math.floor(now / DAY) + 1) * DAY,
  }
  // The moment a spent quota lets requests in again: the day's end when the day is spent.
  const retryAt =
    day.used >= day.limit ? day.resetsAt : minute.used >= minute.limit ? minute.resetsAt : undefined
  return {
    ref: input.ref,
    kind: input.kind,
    label: input.label,
    plan: input.plan,
    source: input.source,
    minute,
    day,
    bannedUntil: bucket?.bannedUntil,
    retryAt,
  }
}

/**
 * The gauges: one per key that works now (used or not), then the busiest
 * anonymous buckets (at most `maxAnonymous`; the rest are only counted).
 *
 * @example
 * snapshotQuotas({ buckets: limiter.snapshot(now), keys: sandbox.keys.list(), now, refOf, maxAnonymous: 20 })
 */
export const snapshotQuotas = (input: {
  buckets: BucketSnapshot[]
  keys: ApiKeyInfo[]
  now: number
  refOf: (bucket: string) => string
  maxAnonymous: number
}): { quotas: QuotaGauge[]; anonymousHidden: number } => {
  const byName = new Map(input.buckets.map((b) => [b.bucket, b]))
  const quotas = input.keys.map((key) =>
    gauge({
      ref: input.refOf(`key:${key.key}`),
      kind: 'key',
      label: maskKey(key),
      plan: key.plan,
      source: key.source,
      limits: key.limits,
      bucket: byName.get(`key:${key.key}`),
      now: input.now,
    }),
  )
  const anonymous = input.buckets
    .filter((b) => b.bucket.startsWith('anon:'))
    .sort((a, b) => b.minuteUsed - a.minuteUsed || b.dayUsed - a.dayUsed)
  for (const bucket of anonymous.slice(0, input.maxAnonymous)) {
    const address = bucket.bucket.slice('anon:'.length)
    quotas.push(
      gauge({
        ref: input.refOf(bucket.bucket),
        kind: 'anonymous',
        label: address === 'shared' ? 'anonymous (shared)' : `anonymous ${address}`,
        plan: 'free',
        limits: PLAN_LIMITS.free,
        bucket,
        now: input.now,
      }),
    )
  }
  return { quotas, anonymousHidden: Math.max(0, anonymous.length - input.maxAnonymous) }
}
