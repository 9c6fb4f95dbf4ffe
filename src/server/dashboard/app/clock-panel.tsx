import { useState } from 'preact/hooks'
import { call } from './api.js'
import { formatInstant } from './format.js'
import { ErrorLine, useAction } from './use-action.js'

const STEPS: [string, number][] = [
  ['+1 s', 1_000],
  ['+1 min', 60_000],
  ['+15 min', 900_000],
  ['+1 h', 3_600_000],
  ['+1 day', 86_400_000],
]

/** The sandbox clock: set it, advance it, or back to real time. */
export const ClockPanel = (props: { now: number; frozen: boolean; onChanged(): void }) => {
  const [when, setWhen] = useState('')
  const action = useAction()
  const post = (body: unknown) =>
    action.run(async () => {
      await call('POST', '/clock', body)
      props.onChanged()
    })
  return (
    <section class="panel" aria-labelledby="clock-title">
      <div class="panel-head">
        <h2 id="clock-title">Clock</h2>
        <span class={props.frozen ? 'badge frozen' : 'badge'}>
          {props.frozen ? 'frozen' : 'real time'}
        </span>
      </div>
      <p class="clock-now">
        <time dateTime={new Date(props.now).toISOString()}>{formatInstant(props.now)}</time>
      </p>
      <fieldset class="buttons">
        <legend class="visually-hidden">Advance the clock</legend>
        {STEPS.map(([label, ms]) => (
          <button
            key={label}
            type="button"
            disabled={action.busy}
            onClick={() => void post({ advanceMs: ms })}
          >
            {label}
          </button>
        ))}
      </fieldset>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault()
          if (when !== '') void post({ now: `${when.length === 16 ? `${when}:00` : when}Z` })
        }}
      >
        <label>
          Set to (UTC)
          <input
            type="datetime-local"
            step="1"
            value={when}
            required
            onInput={(e) => setWhen(e.currentTarget.value)}
          />
        </label>
        <button type="submit" disabled={action.busy}>
          Set
        </button>
      </form>
      <button
        type="button"
        disabled={action.busy || !props.frozen}
        onClick={() => void post({ realTime: true })}
      >
        Back to real time
      </button>
      <ErrorLine error={action.error} />
    </section>
  )
}
