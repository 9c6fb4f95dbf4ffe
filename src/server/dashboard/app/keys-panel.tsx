import { useState } from 'preact/hooks'
import type { QuotaGauge } from '../dashboard-types.js'
import { call } from './api.js'
import { formatCount } from './format.js'
import { ErrorLine, useAction } from './use-action.js'

const PLANS = ['free', 'pro', 'business', 'enterprise'] as const

interface CreatedKey {
  key: string
  plan: string
  limits: { perMinute: number; perDay: number }
}

/** Keys: create one with a plan (and limits, for enterprise), revoke any. Generated keys are masked. */
export const KeysPanel = (props: { quotas: QuotaGauge[]; onChanged(): void }) => {
  const [plan, setPlan] = useState<(typeof PLANS)[number]>('free')
  const [perMinute, setPerMinute] = useState('')
  const [perDay, setPerDay] = useState('')
  const [created, setCreated] = useState<CreatedKey>()
  const action = useAction()
  const keys = props.quotas.filter((q) => q.kind === 'key')
  const enterprise = plan === 'enterprise'

  const create = () =>
    action.run(async () => {
      const body: Record<string, unknown> = { plan }
      if (enterprise && perMinute !== '') body.perMinute = Number(perMinute)
      if (enterprise && perDay !== '') body.perDay = Number(perDay)
      setCreated(await call<CreatedKey>('POST', '/keys', body))
      props.onChanged()
    })
  const revoke = (ref: string) =>
    action.run(async () => {
      await call('DELETE', `/keys/by-ref/${ref}`)
      props.onChanged()
    })

  return (
    <section class="panel" aria-labelledby="keys-title">
      <div class="panel-head">
        <h2 id="keys-title">API keys</h2>
        <span class="muted">{keys.length} working</span>
      </div>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Plan and limits</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.map((k) => (
              <tr key={k.ref}>
                <td>
                  <code class="key">{k.label}</code>
                </td>
                <td>
                  {k.plan}
                  <span class="muted small limits">
                    {formatCount(k.minute.limit)}/min · {formatCount(k.day.limit)}/day
                  </span>
                </td>
                <td>
                  <button
                    type="button"
                    class="danger"
                    disabled={action.busy}
                    aria-label={`Revoke ${k.label}`}
                    onClick={() => void revoke(k.ref)}
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault()
          void create()
        }}
      >
        <label>
          Plan
          <select
            value={plan}
            onChange={(e) => setPlan(e.currentTarget.value as (typeof PLANS)[number])}
          >
            {PLANS.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
        <label>
          Per minute
          <input
            type="number"
            min="1"
            inputMode="numeric"
            disabled={!enterprise}
            placeholder={enterprise ? '5000' : 'plan'}
            value={perMinute}
            onInput={(e) => setPerMinute(e.currentTarget.value)}
          />
        </label>
        <label>
          Per day
          <input
            type="number"
            min="1"
            inputMode="numeric"
            disabled={!enterprise}
            placeholder={enterprise ? '1000000' : 'plan'}
            value={perDay}
            onInput={(e) => setPerDay(e.currentTarget.value)}
          />
        </label>
        <button type="submit" disabled={action.busy}>
          Create key
        </button>
      </form>
      {created !== undefined && (
        <p class="created" role="status">
          New {created.plan} key, shown once: <code class="key">{created.key}</code>
        </p>
      )}
      <ErrorLine error={action.error} />
    </section>
  )
}
