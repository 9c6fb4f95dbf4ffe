import { useEffect, useState } from 'preact/hooks'
import type { DashboardSnapshot } from '../dashboard-types.js'
import { call } from './api.js'
import { ErrorLine, useAction } from './use-action.js'

interface ScenarioInfo {
  name: string
  description: string
}

/** The sticky scenario: every scenario with its description, one radio button each. */
export const ScenarioPanel = (props: {
  current: string | undefined
  timeline?: DashboardSnapshot['timeline']
  version: number
}) => {
  const [scenarios, setScenarios] = useState<ScenarioInfo[]>([])
  const [chosen, setChosen] = useState<string>()
  const action = useAction()
  useEffect(() => {
    void props.version
    void action.run(async () => {
      const body = await call<{ name: string; scenarios: ScenarioInfo[] }>('GET', '/scenario')
      setScenarios(body.scenarios)
      setChosen(body.name)
    })
  }, [props.version])
  // The snapshot is the truth: another client (curl, a test) may have switched it.
  useEffect(() => {
    if (props.current !== undefined) setChosen(props.current)
  }, [props.current])

  const choose = (name: string) =>
    action.run(async () => {
      setChosen(name)
      const body = await call<{ name: string }>('PUT', '/scenario', { name })
      setChosen(body.name)
    })

  return (
    <section class="panel" aria-labelledby="scenario-title">
      <div class="panel-head">
        <h2 id="scenario-title">Scenario</h2>
        <span class="muted">sticky, for every request</span>
      </div>
      <fieldset class="scenarios" disabled={action.busy}>
        <legend class="visually-hidden">Sticky scenario</legend>
        {scenarios.map((s) => (
          <label key={s.name} class={`scenario${s.name === chosen ? ' chosen' : ''}`}>
            <input
              type="radio"
              name="scenario"
              value={s.name}
              checked={s.name === chosen}
              onChange={() => void choose(s.name)}
            />
            <span>
              <strong>{s.name}</strong>
              <span class="description">{s.description}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {props.timeline !== undefined && (
        <p class="timeline-phase" role="status">
          Timeline <strong>{props.timeline.name}</strong>: phase {props.timeline.index + 1} of{' '}
          {props.timeline.phases}, <strong>{props.timeline.scenario}</strong>,{' '}
          {props.timeline.leftMs === null
            ? 'holding for good'
            : `${Math.ceil(props.timeline.leftMs / 1000)} s left`}
        </p>
      )}
      <ErrorLine error={action.error} />
    </section>
  )
}
