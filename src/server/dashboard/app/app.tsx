import { useState } from 'preact/hooks'
import { call, forgetToken, readToken } from './api.js'
import { ClientReportPanel } from './client-report-panel.js'
import { ClockPanel } from './clock-panel.js'
import { CoveragePanel } from './coverage-panel.js'
import { KeysPanel } from './keys-panel.js'
import { ModePanel } from './mode-panel.js'
import { PetsPanel } from './pets-panel.js'
import { QuotaGauges } from './quota-gauges.js'
import { RateChart } from './rate-chart.js'
import { RequestLog } from './request-log.js'
import { ScenarioPanel } from './scenario-panel.js'
import { SessionPicker } from './session-picker.js'
import { TokenPrompt } from './token-prompt.js'
import { ErrorLine, useAction } from './use-action.js'
import { useDashboard } from './use-dashboard.js'
import { useSandboxNow } from './use-sandbox-now.js'

const STREAM_LABELS = { connecting: 'connecting…', live: 'live', offline: 'reconnecting…' }

/** The dashboard: the live log, quotas and the chart, then the controls. */
export const App = () => {
  const dash = useDashboard()
  const now = useSandboxNow(dash.snapshot, dash.receivedAt)
  const [local, setLocal] = useState(0)
  const reset = useAction()
  const version = dash.version + local
  const changed = () => {
    setLocal((v) => v + 1)
    dash.refresh()
  }

  if (dash.denied !== undefined) {
    return (
      <TokenPrompt
        message={
          readToken() === null
            ? dash.denied.message
            : dash.stream === 'connecting'
              ? 'Checking the token…'
              : 'That token was refused.'
        }
        onSaved={dash.reconnect}
      />
    )
  }
  const snapshot = dash.snapshot
  return (
    <>
      <a class="skip" href="#log-title">
        Skip to the requests
      </a>
      <header class="top">
        <h1>
          petstore-sandbox <span class="thin">dashboard</span>
        </h1>
        <p class="api">
          API <code>{`${location.origin}${snapshot?.basePath ?? '/v1'}`}</code>{' '}
          <a href="/__sandbox/docs">API reference and try-it</a>
        </p>
        <div class="top-controls">
          <span class={`stream ${dash.stream}`} role="status">
            {STREAM_LABELS[dash.stream]}
          </span>
          {snapshot !== undefined && (
            <span class="badge scenario-badge">scenario: {snapshot.scenario}</span>
          )}
          <SessionPicker
            version={version}
            onChanged={() => {
              // The stream follows the session: its quotas, clock and scenario.
              changed()
              dash.reconnect()
            }}
          />
          <button
            type="button"
            disabled={reset.busy}
            onClick={() =>
              void reset.run(async () => {
                await call('POST', '/reset')
                dash.clearEntries()
                changed()
              })
            }
          >
            Reset sandbox
          </button>
          {readToken() !== null && (
            <button
              type="button"
              class="quiet"
              onClick={() => {
                forgetToken()
                dash.reconnect()
              }}
            >
              Forget token
            </button>
          )}
        </div>
        <ErrorLine error={reset.error} />
      </header>
      <main class="grid">
        <RequestLog
          entries={dash.entries}
          onClear={() =>
            void call('DELETE', '/requests').then(dash.clearEntries, dash.clearEntries)
          }
        />
        <div class="side">
          <QuotaGauges
            quotas={snapshot?.quotas ?? []}
            hidden={snapshot?.anonymousHidden ?? 0}
            now={now}
          />
          <RateChart series={snapshot?.series} />
          <ClientReportPanel requests={dash.entries.length} version={version} />
          <CoveragePanel requests={dash.entries.length} version={version} />
        </div>
        <div class="controls">
          <ModePanel version={version} />
          <ScenarioPanel
            current={snapshot?.scenario}
            timeline={snapshot?.timeline}
            version={version}
          />
          <ClockPanel now={now} frozen={snapshot?.frozen ?? false} onChanged={changed} />
          <KeysPanel quotas={snapshot?.quotas ?? []} onChanged={changed} />
          <PetsPanel version={version} />
        </div>
      </main>
    </>
  )
}
