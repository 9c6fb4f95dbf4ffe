import { useEffect, useRef } from 'preact/hooks'
import type { FeedEntry, FeedMessage } from '../dashboard-types.js'
import { prettyBody } from './format.js'

const Message = (props: { title: string; message: FeedMessage }) => {
  const headers = Object.entries(props.message.headers)
  return (
    <section class="message">
      <h3>{props.title}</h3>
      {headers.length === 0 ? (
        <p class="muted">No headers.</p>
      ) : (
        <dl class="headers">
          {headers.map(([name, value]) => (
            <div key={name}>
              <dt>{name}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      )}
      {props.message.body === null || props.message.body === '' ? (
        <p class="muted">No body.</p>
      ) : (
        <pre class="body">
          {prettyBody(props.message.body)}
          {props.message.bodyTruncated ? '\n… (cut for display)' : ''}
        </pre>
      )}
    </section>
  )
}

/** The whole exchange of one request, in a modal dialog (Escape closes it). */
export const RequestDetail = (props: { entry: FeedEntry; onClose(): void }) => {
  const dialog = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const element = dialog.current
    if (element !== null && !element.open) element.showModal()
  }, [])
  const { entry } = props
  return (
    <dialog
      ref={dialog}
      class="detail"
      aria-labelledby="detail-title"
      onClose={props.onClose}
      onCancel={props.onClose}
    >
      <header>
        <h2 id="detail-title">
          {entry.method} <span class="url">{entry.url}</span>
        </h2>
        <button type="button" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </header>
      <p class="summary">
        {entry.status === null
          ? `No response (${entry.fault ?? 'connection failed'})`
          : entry.delivered === false
            ? `Status ${entry.status}, not delivered whole (${entry.fault ?? 'the client gave up'})`
            : `Status ${entry.status}${entry.fault === undefined ? '' : ` (${entry.fault})`}`}{' '}
        · {entry.time} · scenario {entry.scenario} · plan {entry.plan ?? 'none'} · session{' '}
        {entry.session}
        {entry.instance === undefined ? '' : ` · answered by ${entry.instance}`}
        {entry.durationMs === undefined ? '' : ` · ${entry.durationMs.toFixed(1)} ms`}
        {entry.source !== undefined && entry.source !== 'sandbox'
          ? ` · from the ${entry.source}`
          : ''}
      </p>
      {(entry.violations?.length ?? 0) > 0 && (
        <section class="violation-list" aria-labelledby="violations-title">
          <h3 id="violations-title">The answer broke the contract</h3>
          <ul>
            {entry.violations?.map((v) => (
              <li key={`${v.rule}:${v.message}`}>
                <code>{v.rule}</code> {v.message}
              </li>
            ))}
          </ul>
        </section>
      )}
      <div class="exchange">
        <Message title="Request" message={entry.request} />
        {entry.response === null ? (
          <section class="message">
            <h3>Response</h3>
            <p class="muted">None: the connection was failed on purpose by the scenario.</p>
          </section>
        ) : (
          <Message title="Response" message={entry.response} />
        )}
      </div>
    </dialog>
  )
}
