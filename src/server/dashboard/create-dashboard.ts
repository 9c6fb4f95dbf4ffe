import { createHash } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import type { SandboxCore } from '../../sandbox/create-sandbox-core.js'
import { phaseAt, stickyName } from '../../scenarios/timeline.js'
import type { ControlAccess } from '../control/create-control-access.js'
import { createEventStream } from './create-event-stream.js'
import { createRateSeries } from './create-rate-series.js'
import { type DashboardSnapshot, type FeedEntry, statusClass } from './dashboard-types.js'
import { type DashboardAsset, loadDashboardAssets } from './load-dashboard-assets.js'
import { snapshotQuotas } from './snapshot-quotas.js'
import { toFeedEntry } from './to-feed-entry.js'

/** How many log entries a page gets when it connects. */
const BACKLOG = 200
/** How often the stream pushes quotas, the clock and the chart (real time). */
const TICK_MS = 1_000
/** How often, while a page is open, the feed reads what was answered since (real time). */
const FEED_MS = 250
/** Most log entries one feed batch carries (200 a second at most); past it the batch says how many it skipped. */
const FEED_MAX = 50

/** The dashboard's state on a server: the built page, the log feed, the chart, the stream. */
export interface Dashboard {
  readonly sandbox: SandboxCore<string>
  /** Loopback or the admin token, as for the control API (wrong tokens counted with its). */
  readonly access: ControlAccess
  /** The built page and files, by name (empty until `load`, or when not built). */
  readonly assets: Map<string, DashboardAsset>
  /** Reads the built page into memory. */
  load(dir?: string): Promise<void>
  /** The entries a page gets on connecting, oldest first (every session). */
  backlog(): Promise<FeedEntry[]>
  /** Counts an answer for the chart (the server calls it; no work per request beyond a counter). */
  count(status: number | null): void
  /**
   * Quotas, clock and scenario of a session (default: `default`), and the
   * chart, read through the state seam: the same on a shared store (Redis)
   * as in memory, whichever instance serves the page.
   */
  snapshot(session?: string): Promise<DashboardSnapshot>
  /** Revokes the key a gauge's `ref` names in a session; false when none matches. */
  revokeByRef(ref: string, session: string): Promise<boolean>
  /** Opens the event stream of a page watching `session`. */
  openStream(res: ServerResponse, session: string): Promise<void>
  /** Pushes an event to every open page (e.g. `change` after a control call). */
  publish(event: string, data: unknown): void
  /** Ends every stream and stops the ticker. */
  close(): void
}

/**
 * Creates the dashboard of a standalone server. Nothing runs while no page is
 * open except the chart's counters: the log is read from the server-wide
 * journal (`state.recentRequests`) every 250 ms while a page is open, in
 * batches of at most 50, so its cost does not grow with the request rate
 * (docs/decisions/0020-journal-entry.md).
 *
 * @example
 * const dashboard = createDashboard({ sandbox, access: createControlAccess({ adminToken }) })
 * await dashboard.load()
 */
export const createDashboard = (input: {
  sandbox: SandboxCore<string>
  access: ControlAccess
  now?: () => number
}): Dashboard => {
  const { sandbox } = input
  const realNow = input.now ?? (() => Date.now())
  const series = createRateSeries({ seconds: 300, now: realNow })
  // The same on every instance (no per-process salt): a page served by one
  // instance may send its revoke to another behind a load balancer. 80 bits of
  // a hash of the bucket: a generated key (128 random bits) cannot be guessed back.
  const refOf = (bucket: string): string =>
    createHash('sha256').update(bucket).digest('hex').slice(0, 20)
  let assets = new Map<string, DashboardAsset>()
  let ticker: ReturnType<typeof setInterval> | undefined
  let feedTimer: ReturnType<typeof setInterval> | undefined
  /** The feed's position in the server-wide journal; undefined until the first page opens. */
  let cursor: string | undefined
  let polling = false

  const readRecent = async (after: string | undefined, max: number) => {
    const recent = await sandbox.state.recentRequests(after, max)
    return { ...recent, entries: recent.entries.map(toFeedEntry) }
  }
  const pollFeed = async (): Promise<void> => {
    if (polling || cursor === undefined) return
    polling = true
    try {
      const recent = await readRecent(cursor, FEED_MAX)
      cursor = recent.cursor
      if (recent.entries.length > 0 || recent.skipped > 0)
        stream.publish('requests', { entries: recent.entries, skipped: recent.skipped })
    } catch {
      // A shared store that cannot be read now is read again at the next poll.
    } finally {
      polling = false
    }
  }

  const snapshot = async (session: string = sandbox.id): Promise<DashboardSnapshot> => {
    const state = await sandbox.state.session(session)
    const { now, frozen } = await state.clock()
    const [sticky, keys, buckets] = await Promise.all([
      state.sticky(),
      state.listKeys(),
      state.quotas(now),
    ])
    const at = typeof sticky === 'string' ? undefined : phaseAt(sticky, now)
    return {
      basePath: sandbox.basePath,
      now,
      frozen,
      scenario: stickyName(sticky),
      ...(at === undefined || typeof sticky === 'string'
        ? {}
        : {
            timeline: {
              name: sticky.name,
              phases: sticky.phases.length,
              index: at.index,
              scenario: at.scenario,
              leftMs: at.leftMs,
            },
          }),
      ...snapshotQuotas({ buckets, keys, now, refOf, maxAnonymous: 20 }),
      series: series.read(),
    }
  }
  /** Pushes a fresh snapshot to the pages watching `session` (a failed read, e.g. Redis away, skips one push). */
  const push = (session: string): void => {
    snapshot(session).then(
      (data) => stream.publish('snapshot', data, session),
      () => {},
    )
  }

  const stream = createEventStream({
    onChange(size) {
      if (size > 0 && ticker === undefined) {
        ticker = setInterval(() => {
          for (const session of stream.sessions()) push(session)
        }, TICK_MS)
        ticker.unref()
        feedTimer = setInterval(() => void pollFeed(), FEED_MS)
        feedTimer.unref()
      } else if (size === 0 && ticker !== undefined) {
        clearInterval(ticker)
        clearInterval(feedTimer)
        ticker = undefined
        feedTimer = undefined
        cursor = undefined
      }
    },
  })

  // Quotas, clock and scenario of the session each page watches; the log is polled (above).
  sandbox.events.on('reset', ({ session }) => {
    stream.publish('change', { type: 'reset', session })
    push(session)
  })
  for (const type of ['keys', 'scenario', 'clock'] as const) {
    sandbox.events.on(type, ({ session }) => {
      stream.publish('change', { type, session })
      push(session)
    })
  }

  return {
    sandbox,
    access: input.access,
    get assets() {
      return assets
    },
    async load(dir) {
      assets = await loadDashboardAssets(dir)
    },
    backlog: async () => (await readRecent(undefined, BACKLOG)).entries,
    count: (status) => series.count(statusClass(status)),
    snapshot,
    async revokeByRef(ref, session) {
      const state = await sandbox.state.session(session)
      const key = (await state.listKeys()).find((k) => refOf(`key:${k.key}`) === ref)?.key
      return key !== undefined && (await state.revokeKey(key))
    },
    async openStream(res, session) {
      const [first, recent] = await Promise.all([
        snapshot(session),
        readRecent(undefined, BACKLOG).catch(() => undefined),
      ])
      // The page dedupes by session and seq, so a batch overlapping its backlog is harmless.
      cursor ??= recent?.cursor
      stream.open(
        res,
        [
          { event: 'snapshot', data: first },
          { event: 'backlog', data: recent?.entries ?? [] },
        ],
        session,
      )
    },
    publish: (event, data) => stream.publish(event, data),
    close() {
      stream.close()
      clearInterval(ticker)
      clearInterval(feedTimer)
      ticker = undefined
      feedTimer = undefined
    },
  }
}
