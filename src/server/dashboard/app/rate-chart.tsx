import { type RateSeries, STATUS_CLASSES } from '../dashboard-types.js'

/** Seconds the chart shows. */
const SHOWN = 120

/** Requests per second by status class over the last two minutes, stacked columns in SVG. */
export const RateChart = (props: { series: RateSeries | undefined }) => {
  const counts = props.series?.counts
  const columns = Array.from({ length: SHOWN }, (_, i) =>
    STATUS_CLASSES.map((c) => {
      const list = counts?.[c] ?? []
      return list[list.length - SHOWN + i] ?? 0
    }),
  )
  const totals = columns.map((column) => column.reduce((a, b) => a + b, 0))
  const max = Math.max(1, ...totals)
  const total = totals.reduce((a, b) => a + b, 0)
  const last10 = totals.slice(-10).reduce((a, b) => a + b, 0) / 10
  const sums = STATUS_CLASSES.map((_, k) => columns.reduce((a, column) => a + (column[k] ?? 0), 0))
  return (
    <section class="panel" aria-labelledby="chart-title">
      <div class="panel-head">
        <h2 id="chart-title">Requests per second</h2>
        <span class="muted">last 2 minutes, real time</span>
      </div>
      <svg
        class="chart"
        viewBox={`0 0 ${SHOWN} 40`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`${total} requests in the last 2 minutes, ${last10.toFixed(1)} per second over the last 10 seconds, peak ${max} per second`}
      >
        <line class="axis" x1="0" y1="40" x2={SHOWN} y2="40" />
        {columns.map((column, x) => {
          let y = 40
          return column.map((n, k) => {
            if (n === 0) return null
            const h = (n / max) * 38
            y -= h
            return (
              <rect
                key={`${x}-${k}`}
                class={`c-${STATUS_CLASSES[k]}`}
                x={x + 0.1}
                y={y}
                width={0.8}
                height={h}
              />
            )
          })
        })}
      </svg>
      <div class="chart-scale muted small">
        <span>−2 min</span>
        <span>peak {max}/s</span>
        <span>now</span>
      </div>
      <ul class="legend">
        {STATUS_CLASSES.map((c, k) => (
          <li key={c}>
            <span class={`swatch c-${c}`} aria-hidden="true" />
            {c === 'none' ? 'no response' : c} <strong>{sums[k]}</strong>
          </li>
        ))}
      </ul>
    </section>
  )
}
