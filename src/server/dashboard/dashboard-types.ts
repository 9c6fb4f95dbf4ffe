import type { Fault } from '../../http/types.js'

/**
 * The wire types between the dashboard's server side and its page (app/).
 * The page imports them as types only, so nothing of node reaches the bundle.
 */

/** One request as the log shows it: the journal entry's shape after the "Layering" refactor. */
export interface FeedEntry {
  seq: number
  /** ISO time by the sandbox clock. */
  time: string
  session: string
  /** The instance that answered, when several share a store. */
  instance?: string | undefined
  method: string
  /** Path and query, secrets redacted. */
  url: string
  /**
   * The operation id: the contract's (`listPets`…), an added one's (an OpenAPI
   * document's `operationId`, `METHOD /path`), null when no operation matched.
   */
  operation?: string | null | undefined
  /** null: no response, the connection was failed (network-error, timeout, flaky). */
  status: number | null
  fault?: Fault | undefined
  /** False when the answer did not reach the client whole (a fault broke it, or the client gave up). */
  delivered?: boolean | undefined
  scenario: string
  /** The timeline phase that chose `scenario` (contract §19), when a timeline was in play. */
  phase?: { timeline: string; index: number; scenario: string } | undefined
  plan?: string | undefined
  durationMs?: number | undefined
  delayMs?: number | undefined
  request: FeedMessage
  response: FeedMessage | null
  /** Where the answer came from: the sandbox, the upstream, or a recording (contract §17). */
  source?: 'sandbox' | 'upstream' | 'replay' | undefined
  /** Contract rules an upstream's (or a recording's) answer broke. */
  violations?: { rule: string; message: string }[] | undefined
}

/** Headers (secrets redacted) and a body capped for display. */
export interface FeedMessage {
  headers: Record<string, string>
  body: string | null
  bodyTruncated: boolean
}

/** One window of a quota gauge. */
export interface QuotaWindow {
  used: number
  limit: number
  /** Epoch ms the window resets, by the sandbox clock. */
  resetsAt: number
}

/** A key's or an anonymous bucket's quota at one moment. */
export interface QuotaGauge {
  /** Opaque reference: revokes a key without the page holding its text. */
  ref: string
  kind: 'key' | 'anonymous'
  /** A demo or option key in full, a generated key masked, or the client address. */
  label: string
  plan: string
  source?: 'demo' | 'options' | 'runtime' | 'account' | undefined
  minute: QuotaWindow
  day: QuotaWindow
  /** Epoch ms a ban ends, while banned. */
  bannedUntil?: number | undefined
  /** Epoch ms a spent window lets requests in again (what Retry-After counts down to). */
  retryAt?: number | undefined
}

/** Requests per second, by status class, over the last minutes (real time). */
export interface RateSeries {
  /** Epoch seconds (real time) of the last, still filling, second. */
  end: number
  /** One count per second, oldest first, per class. */
  counts: Record<StatusClass, number[]>
}

export const STATUS_CLASSES = ['2xx', '3xx', '4xx', '429', '5xx', 'none'] as const
export type StatusClass = (typeof STATUS_CLASSES)[number]

/** What the event stream pushes every second, and the `GET /__sandbox/quotas` body. */
export interface DashboardSnapshot {
  /** The API's base path, e.g. `/v1`. */
  basePath: string
  /** Epoch ms by the sandbox clock. */
  now: number
  frozen: boolean
  scenario: string
  /** The sticky timeline's phase and the time left in it (ms by the sandbox clock; null: it holds for good). */
  timeline?:
    | { name: string; phases: number; index: number; scenario: string; leftMs: number | null }
    | undefined
  quotas: QuotaGauge[]
  /** Anonymous buckets left out of `quotas` (only the busiest are shown). */
  anonymousHidden: number
  series: RateSeries
}

/** The status class of an answer, for filters and the chart. */
export const statusClass = (status: number | null): StatusClass => {
  if (status === null) return 'none'
  if (status === 429) return '429'
  if (status >= 500) return '5xx'
  if (status >= 400) return '4xx'
  if (status >= 300) return '3xx'
  return '2xx'
}
