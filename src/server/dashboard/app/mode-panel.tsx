import { useEffect, useState } from 'preact/hooks'
import { call } from './api.js'
import { ErrorLine, useAction } from './use-action.js'

type Mode = 'sandbox' | 'upstream' | 'replay'

interface ModeInfo {
  mode: Mode
  modes: Mode[]
  upstream: string | null
  replay: { answers: number; skipped: number } | null
  recorded: number
}

const DESCRIPTIONS: Record<Mode, string> = {
  sandbox: 'The sandbox answers every request itself.',
  upstream: 'Requests go to the upstream; every answer is checked against the contract.',
  replay: 'Requests are answered from the recording, in recorded order.',
}

/** Upstream mode (contract §17): how the session answers. Shown only when the sandbox has an upstream or a recording. */
export const ModePanel = (props: { version: number }) => {
  const [info, setInfo] = useState<ModeInfo>()
  const action = useAction()
  useEffect(() => {
    void props.version
    void action.run(async () => setInfo(await call<ModeInfo>('GET', '/mode')))
  }, [props.version])
  if (info === undefined || info.modes.length < 2) return null
  const choose = (mode: Mode) =>
    action.run(async () => {
      // Shown at once; the server's answer (or the error) follows.
      setInfo({ ...info, mode })
      try {
        setInfo(await call<ModeInfo>('PUT', '/mode', { mode }))
      } catch (error) {
        setInfo(info)
        throw error
      }
    })
  return (
    <section class="panel compact" aria-labelledby="mode-title">
      <div class="panel-head">
        <h2 id="mode-title">Mode</h2>
        <span class="muted">
          {info.upstream === null ? 'replaying a recording' : `upstream ${info.upstream}`}
          {info.recorded > 0 ? ` · ${info.recorded} recorded` : ''}
        </span>
      </div>
      <fieldset class="scenarios" disabled={action.busy}>
        <legend class="visually-hidden">How this session answers</legend>
        {info.modes.map((mode) => (
          <label key={mode} class={`scenario${mode === info.mode ? ' chosen' : ''}`}>
            <input
              type="radio"
              name="mode"
              value={mode}
              checked={mode === info.mode}
              onChange={() => void choose(mode)}
            />
            <span>
              <strong>{mode}</strong>
              <span class="description">
                {DESCRIPTIONS[mode]}
                {mode === 'replay' && info.replay !== null
                  ? ` ${info.replay.answers} answers.`
                  : ''}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
      <ErrorLine error={action.error} />
    </section>
  )
}
