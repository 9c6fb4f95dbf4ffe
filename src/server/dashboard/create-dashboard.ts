import { createHash, randomBytes } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import type { SandboxCore } from '../../sandbox/create-sandbox-core.js'
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

/** The dashboard's state on a server: the built page, the log feed, the chart, the stream. */
export interface Dashboard {
  readonly sandbox: SandboxCore<string>
  readonly adminToken: string | undefined
  /** The built page and files, by name (empty until `load`, or when not built). */
  readonly assets: Map<string, DashboardAsset>
  /** Reads the built page into memory. */
  load(dir?: string): Promise<void>
  /** The entries a page gets on connecting, oldest first. */
  backlog(): FeedEntry[]
  /** Quotas, clock and scenario of a session (default: `default`), and the chart. */
  snapshot(session?: string): DashboardSnapshot
  /** The key a gauge's `ref` names in a session (default: `default`), or undefined. */
  resolveRef(ref: string, session?: string): string | undefined
  /** Opens the event stream of a page watching `session`. */
  openStream(res: ServerResponse, session: string): void
  /** Pushes an event to every open page (e.g. `change` after a control call). */
  publish(event: string, data: unknown): void
  /** Ends every stream and stops the ticker. */
  close(): void
}

/**
 * Creates the dashboard of a standalone server. Nothing runs while no page is
 * open except the log's ring of the last 200 answers and the chart's counters.
 *
 * @example
 * const dashboard = createDashboard({ sandbox, limiter, adminToken })
 * await dashboard.load()
 */
export const createDashboard = (input: {
  sandbox: SandboxCore<string>
  adminToken: string | undefined
  now?: () => number
}): Dashboard => {
  const { sandbox } = input
  const realNow = input.now ?? (() => Date.now())
  const series = createRateSeries({ seconds: 300, now: realNow })
  const salt = randomBytes(16)
  const refOf = (bucket: string): string =>
    createHash('sha256').update(salt).update(bucket).digest('hex').slice(0, 20)
  let assets = new Map<string, DashboardAsset>()
  let ring: FeedEntry[] = []
  let ticker: ReturnType<typeof setInterval> | undefined

  const snapshot = (session: string = sandbox.id): DashboardSnapshot => {
    const controls = session === sandbox.id ? sandbox : sandbox.session(session)
    const now = controls.clock.now()
    return {
      basePath: sandbox.basePath,
      now,
      frozen: controls.clock.frozen,
      scenario: controls.scenario.get(),
      ...snapshotQuotas({
        buckets: sandbox.limiterOf(session)?.snapshot(now) ?? [],
        keys: controls.keys.list(),
        now,
        refOf,
        maxAnonymous: 20,
      }),
      series: series.read(),
    }
  }

  const stream = createEventStream({
    onChange(size) {
      if (size > 0 && ticker === undefined) {
        ticker = setInterval(() => stream.publishPerSession('snapshot', snapshot), TICK_MS)
        ticker.unref()
      } else if (size === 0 && ticker !== undefined) {
        clearInterval(ticker)
        ticker = undefined
      }
    },
  })

  // The feed: every session's requests; quotas, clock and scenario of the session each page watches.
  sandbox.events.on('request', (entry) => {
    const feed = toFeedEntry(entry)
    series.count(statusClass(feed.status))
    ring.push(feed)
    if (ring.length > BACKLOG * 2) ring = ring.slice(-BACKLOG)
    stream.publish('request', feed)
  })
  sandbox.events.on('reset', ({ session }) => {
    if (session === sandbox.id) ring = ring.filter((e) => e.session !== session)
    stream.publish('change', { type: 'reset', session })
    stream.publish('snapshot', snapshot(session), session)
  })
  for (const type of ['keys', 'scenario', 'clock'] as const) {
    sandbox.events.on(type, ({ session }) => {
      stream.publish('change', { type, session })
      stream.publish('snapshot', snapshot(session), session)
    })
  }

  return {
    sandbox,
    adminToken: input.adminToken,
    get assets() {
      return assets
    },
    async load(dir) {
      assets = await loadDashboardAssets(dir)
    },
    backlog: () => ring.slice(-BACKLOG),
    snapshot,
    resolveRef(ref, session = sandbox.id) {
      const controls = session === sandbox.id ? sandbox : sandbox.session(session)
      for (const key of controls.keys.list()) if (refOf(`key:${key.key}`) === ref) return key.key
      return undefined
    },
    openStream(res, session) {
      stream.open(
        res,
        [
          { event: 'snapshot', data: snapshot(session) },
          { event: 'backlog', data: ring.slice(-BACKLOG) },
        ],
        session,
      )
    },
    publish: (event, data) => stream.publish(event, data),
    close() {
      stream.close()
      if (ticker !== undefined) clearInterval(ticker)
      ticker = undefined
    },
  }
}
