import type { QuotaGauge, QuotaWindow } from '../dashboard-types.js'
import { formatCount, formatDuration } from './format.js'

const Bar = (props: { name: string; window: QuotaWindow; now: number; owner: string }) => {
  const { used, limit, resetsAt } = props.window
  return (
    <div class="window">
      <div class="window-label">
        <span>{props.name}</span>
        <span>
          {formatCount(used)} / {formatCount(limit)}
        </span>
      </div>
      <meter
        class="bar"
        min={0}
        max={limit}
        low={limit * 0.8}
        high={Math.max(limit - 0.5, limit * 0.8)}
        optimum={0}
        value={Math.min(used, limit)}
        aria-label={`${props.owner}: ${props.name} window`}
        aria-valuetext={`${used} of ${limit} used`}
      >
        {used} of {limit}
      </meter>
      <div class="muted small">resets in {formatDuration(resetsAt - props.now)}</div>
    </div>
  )
}

/** One gauge per key and busy anonymous bucket: the minute and the day, bans and Retry-After, live. */
export const QuotaGauges = (props: { quotas: QuotaGauge[]; hidden: number; now: number }) => (
  <section class="panel" aria-labelledby="quotas-title">
    <div class="panel-head">
      <h2 id="quotas-title">Quotas</h2>
      <span class="muted">by the sandbox clock</span>
    </div>
    <ul class="gauges">
      {props.quotas.map((q) => {
        const banned = q.bannedUntil !== undefined && q.bannedUntil > props.now
        const limited = !banned && q.retryAt !== undefined && q.retryAt > props.now
        return (
          <li key={q.ref} class={`gauge${banned ? ' banned' : limited ? ' limited' : ''}`}>
            <div class="gauge-head">
              <code class="key">{q.label}</code>
              <span class="badge">{q.plan}</span>
            </div>
            <Bar name="minute" window={q.minute} now={props.now} owner={q.label} />
            <Bar name="day" window={q.day} now={props.now} owner={q.label} />
            {banned && q.bannedUntil !== undefined && (
              <p class="alert" role="status">
                Banned: {formatDuration(q.bannedUntil - props.now)} left
              </p>
            )}
            {limited && q.retryAt !== undefined && (
              <p class="warn" role="status">
                Limited: Retry-After {formatDuration(q.retryAt - props.now)}
              </p>
            )}
          </li>
        )
      })}
    </ul>
    {props.hidden > 0 && (
      <p class="muted small">
        {props.hidden} quieter anonymous bucket{props.hidden === 1 ? '' : 's'} not shown.
      </p>
    )}
  </section>
)
