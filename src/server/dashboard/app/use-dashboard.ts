import { useCallback, useEffect, useState } from 'preact/hooks'
import type { DashboardSnapshot, FeedEntry } from '../dashboard-types.js'
import { type ControlError, call } from './api.js'
import { connectStream, type StreamState } from './connect-stream.js'

/** The page keeps this many log entries. */
const KEEP = 500

export interface DashboardState {
  snapshot: DashboardSnapshot | undefined
  /** When the snapshot arrived, by the page's clock (for live countdowns). */
  receivedAt: number
  entries: FeedEntry[]
  stream: StreamState
  /** Set when the server wants the admin token (403 forbidden). */
  denied: ControlError | undefined
  /** Bumped on every change that may alter the pets, keys or scenario. */
  version: number
  clearEntries(): void
  /** Reconnects, e.g. after the token was entered. */
  reconnect(): void
  /** Reads the quotas, clock and scenario now, not at the next tick. */
  refresh(): void
}

/** An entry's identity across batches: a batch may overlap the backlog a page got on connecting. */
const idOf = (entry: FeedEntry): string => `${entry.instance ?? ''}/${entry.session}/${entry.seq}`

/** Appends a batch, without the entries already shown, keeping the last `KEEP`. */
const append = (list: FeedEntry[], batch: readonly FeedEntry[]): FeedEntry[] => {
  const shown = new Set(list.map(idOf))
  const fresh = batch.filter((entry) => !shown.has(idOf(entry)))
  return fresh.length === 0 ? list : [...list, ...fresh].slice(-KEEP)
}

const isSnapshot = (data: unknown): data is DashboardSnapshot =>
  typeof data === 'object' && data !== null && 'quotas' in data && 'series' in data

/** Connects the event stream and holds what it pushes. */
export const useDashboard = (): DashboardState => {
  const [snapshot, setSnapshot] = useState<DashboardSnapshot>()
  const [receivedAt, setReceivedAt] = useState(0)
  const [entries, setEntries] = useState<FeedEntry[]>([])
  const [stream, setStream] = useState<StreamState>('connecting')
  const [denied, setDenied] = useState<ControlError>()
  const [version, setVersion] = useState(0)
  const [attempt, setAttempt] = useState(0)

  useEffect(() => {
    void attempt
    // A refusal stays until the stream is let in: the panels mount only with a token the
    // server took, so a wrong one costs one refused call, not one per panel (wrong admin
    // tokens are throttled per address, docs/hardening.md).
    const stop = connectStream({
      onState(state) {
        setStream(state)
        if (state === 'live') setDenied(undefined)
      },
      onDenied: setDenied,
      onEvent(type, data) {
        if (type === 'snapshot' && isSnapshot(data)) {
          setSnapshot(data)
          setReceivedAt(Date.now())
        } else if (type === 'backlog' && Array.isArray(data)) {
          setEntries((data as FeedEntry[]).slice(-KEEP))
        } else if (type === 'requests') {
          const batch = (data as { entries?: FeedEntry[] }).entries ?? []
          setEntries((list) => append(list, batch))
          if (batch.some((entry) => entry.method === 'POST')) setVersion((v) => v + 1)
        } else if (type === 'change') {
          if ((data as { type?: string }).type === 'reset') setEntries([])
          setVersion((v) => v + 1)
        }
      },
    })
    return stop
  }, [attempt])

  return {
    snapshot,
    receivedAt,
    entries,
    stream,
    denied: denied ?? undefined,
    version,
    clearEntries: useCallback(() => setEntries([]), []),
    reconnect: useCallback(() => {
      // Connecting from this render on: a token just entered reads "checking", not "refused".
      setStream('connecting')
      setAttempt((a) => a + 1)
    }, []),
    refresh: useCallback(() => {
      call('GET', '/quotas').then(
        (data) => {
          if (!isSnapshot(data)) return
          setSnapshot(data)
          setReceivedAt(Date.now())
        },
        () => {},
      )
    }, []),
  }
}
