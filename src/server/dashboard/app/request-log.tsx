import { useMemo, useState } from 'preact/hooks'
import {
  type FeedEntry,
  STATUS_CLASSES,
  type StatusClass,
  statusClass,
} from '../dashboard-types.js'
import { timeOfDay } from './format.js'
import { RequestDetail } from './request-detail.js'

const CLASS_LABELS: Record<StatusClass, string> = {
  '2xx': '2xx success',
  '3xx': '3xx redirect',
  '4xx': '4xx client error (not 429)',
  '429': '429 rate limited',
  '5xx': '5xx server error',
  none: 'no response',
}

/** The live request log: newest first, filters, and a dialog with the whole exchange. */
export const RequestLog = (props: { entries: FeedEntry[]; onClear(): void }) => {
  const [status, setStatus] = useState<'all' | StatusClass>('all')
  const [path, setPath] = useState('')
  const [session, setSession] = useState('all')
  const [open, setOpen] = useState<FeedEntry>()

  const sessions = useMemo(
    () => [...new Set(props.entries.map((e) => e.session))].sort(),
    [props.entries],
  )
  const shown = useMemo(() => {
    const needle = path.trim().toLowerCase()
    return props.entries
      .filter(
        (e) =>
          (status === 'all' || statusClass(e.status) === status) &&
          (session === 'all' || e.session === session) &&
          (needle === '' || e.url.toLowerCase().includes(needle)),
      )
      .reverse()
  }, [props.entries, status, path, session])

  return (
    <section class="panel log" aria-labelledby="log-title">
      <div class="panel-head">
        <h2 id="log-title">Requests</h2>
        <span class="muted" aria-live="polite">
          {shown.length} of {props.entries.length}
        </span>
        <button type="button" class="quiet" onClick={props.onClear}>
          Clear
        </button>
      </div>
      <div class="filters">
        <label>
          Status
          <select
            value={status}
            onChange={(e) => setStatus(e.currentTarget.value as 'all' | StatusClass)}
          >
            <option value="all">all</option>
            {STATUS_CLASSES.map((c) => (
              <option key={c} value={c}>
                {CLASS_LABELS[c]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Path contains
          <input
            type="search"
            value={path}
            placeholder="/v1/pets"
            onInput={(e) => setPath(e.currentTarget.value)}
          />
        </label>
        <label>
          Session
          <select value={session} onChange={(e) => setSession(e.currentTarget.value)}>
            <option value="all">all</option>
            {sessions.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      </div>
      {shown.length === 0 ? (
        <p class="empty">
          {props.entries.length === 0
            ? 'No requests yet. Point your app at the API and they appear here as they arrive.'
            : 'No request matches the filters.'}
        </p>
      ) : (
        <ol class="entries" aria-label="Requests, newest first">
          {shown.map((e) => (
            <li key={`${e.instance ?? ''}/${e.session}/${e.seq}`}>
              <button type="button" class="entry" aria-haspopup="dialog" onClick={() => setOpen(e)}>
                <span class="time">{timeOfDay(e.time)}</span>
                <span class={`method m-${e.method.toLowerCase()}`}>{e.method}</span>
                <span class="url">{e.url}</span>
                <span class={`status s-${statusClass(e.status)}`}>
                  {e.status === null ? 'no response' : e.status}
                  {e.status !== null && e.delivered === false ? ' (lost)' : ''}
                </span>
                <span class="meta">
                  {e.operation !== null && <span class="operation-label">{e.operation} · </span>}
                  {e.scenario}
                  {e.phase === undefined ? '' : ` (${e.phase.timeline} phase ${e.phase.index + 1})`}{' '}
                  · {e.plan ?? 'no valid key'} · {e.session}
                  {e.instance === undefined ? '' : ` · ${e.instance}`}
                  {e.source !== undefined && e.source !== 'sandbox' && (
                    <span class={`source src-${e.source}`}> · {e.source}</span>
                  )}
                  {(e.violations?.length ?? 0) > 0 && (
                    <span class="violations">
                      {' '}
                      · {e.violations?.length} contract violation
                      {e.violations?.length === 1 ? '' : 's'}
                    </span>
                  )}
                </span>
              </button>
            </li>
          ))}
        </ol>
      )}
      {open !== undefined && <RequestDetail entry={open} onClose={() => setOpen(undefined)} />}
    </section>
  )
}
