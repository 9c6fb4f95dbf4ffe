import { useEffect, useState } from 'preact/hooks'
import { call } from './api.js'
import { ErrorLine, useAction } from './use-action.js'

interface Finding {
  rule: string
  level: 'error' | 'warning'
  message: string
  seqs: number[]
}

interface ClientReport {
  session: string
  requests: number
  findings: Finding[]
}

/** How long the panel waits after the last new request before asking again. */
const SETTLE_MS = 400
/** At most this many seqs are listed per finding. */
const MAX_SEQS = 12

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`

const seqList = (seqs: readonly number[]): string =>
  seqs.length <= MAX_SEQS
    ? seqs.map((s) => `#${s}`).join(', ')
    : `${seqs
        .slice(0, MAX_SEQS)
        .map((s) => `#${s}`)
        .join(', ')} … (${seqs.length} requests)`

/**
 * The client-behaviour report of the selected session (issue 23): what the
 * client did wrong by the rules of contract §18, read from GET
 * /__sandbox/report again once new requests settle.
 */
export const ClientReportPanel = (props: { requests: number; version: number }) => {
  const [report, setReport] = useState<ClientReport>()
  const action = useAction()
  useEffect(() => {
    void props.version
    const timer = setTimeout(
      () => void action.run(async () => setReport(await call<ClientReport>('GET', '/report'))),
      SETTLE_MS,
    )
    return () => clearTimeout(timer)
  }, [props.requests, props.version])

  const errors = report?.findings.filter((f) => f.level === 'error').length ?? 0
  const warnings = (report?.findings.length ?? 0) - errors
  return (
    <section class="panel client-report" aria-labelledby="report-title">
      <div class="panel-head">
        <h2 id="report-title">Client behaviour</h2>
        {report !== undefined && (
          <span class="muted" aria-live="polite">
            {plural(report.requests, 'request')} of {report.session}: {plural(errors, 'error')},{' '}
            {plural(warnings, 'warning')}
          </span>
        )}
      </div>
      {report !== undefined && report.findings.length === 0 && (
        <p class="empty">No findings: the client behaves.</p>
      )}
      {report !== undefined && report.findings.length > 0 && (
        <ol class="findings">
          {report.findings.map((finding) => (
            <li key={`${finding.rule}-${finding.seqs[0]}`} class={`finding is-${finding.level}`}>
              <div class="finding-head">
                <span class="level">{finding.level}</span>
                <code>{finding.rule}</code>
                <span class="seqs">{seqList(finding.seqs)}</span>
              </div>
              <p>{finding.message}</p>
            </li>
          ))}
        </ol>
      )}
      <ErrorLine error={action.error} />
    </section>
  )
}
