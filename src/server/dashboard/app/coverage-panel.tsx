import { useEffect, useState } from 'preact/hooks'
import { call } from './api.js'
import { ErrorLine, useAction } from './use-action.js'

interface OperationRow {
  operation: string
  method: string
  path: string
  requests: number
  statuses: { status: number; count: number }[]
  faults: { fault: string; count: number }[]
  unmet: string[]
}

/**
 * What the client met of one operation: its statuses with counts, and the
 * requests that got no answer (a fault: `network-error`, `empty-response`,
 * a client that gave up) as called all the same.
 */
const metText = (o: OperationRow): string => {
  const met = o.statuses.filter((s) => s.count > 0).map((s) => `${s.status} ×${s.count}`)
  const answered = o.statuses.reduce((sum, s) => sum + s.count, 0)
  const unanswered = o.requests - answered
  if (unanswered > 0) {
    const named = o.faults.filter((f) => f.count > 0).map((f) => `${f.fault} ×${f.count}`)
    met.push(
      `${unanswered} met a fault, no answer${named.length > 0 ? ` (${named.join(', ')})` : ''}`,
    )
  }
  return met.join(' · ') || 'not called yet'
}

interface Coverage {
  session: string
  requests: number
  operations: OperationRow[]
  unrouted: number
}

/** The contract's own operations; any other id was added (your handlers, an OpenAPI document). */
const CONTRACT = new Set(['listPets', 'createPet', 'getPet'])
/** How long the panel waits after the last new request before asking again. */
const SETTLE_MS = 400

/**
 * The operations of the sandbox and what the session's client met of each
 * (GET /__sandbox/coverage): the contract's three, then those your handlers
 * and an `openapi` document added (marked "added"), each with its method and
 * path, the requests it got, the statuses met and what was never met.
 */
export const CoveragePanel = (props: { requests: number; version: number }) => {
  const [coverage, setCoverage] = useState<Coverage>()
  const action = useAction()
  useEffect(() => {
    void props.version
    const timer = setTimeout(
      () => void action.run(async () => setCoverage(await call<Coverage>('GET', '/coverage'))),
      SETTLE_MS,
    )
    return () => clearTimeout(timer)
  }, [props.requests, props.version])

  const added = coverage?.operations.filter((o) => !CONTRACT.has(o.operation)).length ?? 0
  return (
    <section class="panel coverage" aria-labelledby="coverage-title">
      <div class="panel-head">
        <h2 id="coverage-title">Operations</h2>
        {coverage !== undefined && (
          <span class="muted" aria-live="polite">
            {coverage.operations.length} ({added} added), {coverage.requests} requests of{' '}
            {coverage.session}
          </span>
        )}
      </div>
      {coverage !== undefined && (
        <ul class="operations">
          {coverage.operations.map((o) => (
            <li
              key={o.operation}
              class={`operation${CONTRACT.has(o.operation) ? '' : ' is-added'}`}
            >
              <div class="operation-head">
                <code class="operation-id">{o.operation}</code>
                {!CONTRACT.has(o.operation) && <span class="added">added</span>}
                <span class="muted">
                  {o.method} {o.path}
                </span>
                <span class="count">{o.requests}</span>
              </div>
              <p class="met">
                {metText(o)}
                {o.unmet.length > 0 && (
                  <span class="muted"> · never met: {o.unmet.join(', ')}</span>
                )}
              </p>
            </li>
          ))}
        </ul>
      )}
      <ErrorLine error={action.error} />
    </section>
  )
}
