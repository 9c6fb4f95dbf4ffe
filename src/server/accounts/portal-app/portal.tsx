import { useEffect, useState } from 'preact/hooks'
import { keyRef } from '../../../journal/key-ref.js'
import { ControlError } from '../../dashboard/app/api.js'
import { formatCount } from '../../dashboard/app/format.js'
import { ErrorLine, useAction } from '../../dashboard/app/use-action.js'
import {
  account,
  type Entry,
  type Key,
  type Me,
  type Quota,
  sandbox,
  useCsrfToken,
} from './portal-api.js'

const POLL_MS = 2_000

/** The portal (contract §22): sign up or in, then the account's keys and its own sandbox. */
export const Portal = () => {
  const [me, setMe] = useState<Me | null>()
  const load = async () => {
    try {
      const found = await account<Me>('GET', '/me')
      useCsrfToken(found.csrfToken)
      setMe(found)
    } catch (error) {
      useCsrfToken(null)
      if (error instanceof ControlError && error.status === 401) setMe(null)
      else setMe(null)
    }
  }
  useEffect(() => {
    void load()
  }, [])
  if (me === undefined) return <p class="muted">Loading…</p>
  if (me === null) return <SignedOut onSignedIn={() => void load()} />
  return <SignedIn me={me} onSignedOut={() => void load()} />
}

const SignedOut = (props: { onSignedIn(): void }) => {
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [invite, setInvite] = useState('')
  const [loginEmail, setLoginEmail] = useState('')
  const [loginPassword, setLoginPassword] = useState('')
  const signup = useAction()
  const login = useAction()
  return (
    <>
      <header class="top">
        <h1>
          petstore-sandbox <span class="thin">portal</span>
        </h1>
        <p class="api">
          Sign up for your own sandbox of the Pet Store API: your keys, your pets, your request log.
        </p>
      </header>
      <main class="portal-forms">
        <form
          class="panel"
          aria-labelledby="signup-title"
          onSubmit={(e) => {
            e.preventDefault()
            void signup
              .run(() =>
                account('POST', '/signup', {
                  email,
                  password,
                  ...(invite.trim() === '' ? {} : { invite: invite.trim() }),
                }),
              )
              .then((ok) => ok && props.onSignedIn())
          }}
        >
          <h2 id="signup-title">Sign up</h2>
          <label>
            Email
            <input
              type="email"
              autoComplete="email"
              required
              value={email}
              onInput={(e) => setEmail(e.currentTarget.value)}
            />
          </label>
          <label>
            Password (12 characters or more)
            <input
              type="password"
              autoComplete="new-password"
              required
              minLength={12}
              value={password}
              onInput={(e) => setPassword(e.currentTarget.value)}
            />
          </label>
          <label>
            Invite code (if you were given one)
            <input
              type="text"
              autoComplete="off"
              value={invite}
              onInput={(e) => setInvite(e.currentTarget.value)}
            />
          </label>
          <button type="submit" disabled={signup.busy}>
            Create my account
          </button>
          <ErrorLine error={signup.error} />
        </form>
        <form
          class="panel"
          aria-labelledby="login-title"
          onSubmit={(e) => {
            e.preventDefault()
            void login
              .run(() => account('POST', '/login', { email: loginEmail, password: loginPassword }))
              .then((ok) => ok && props.onSignedIn())
          }}
        >
          <h2 id="login-title">Sign in</h2>
          <label>
            Email
            <input
              type="email"
              autoComplete="username"
              required
              value={loginEmail}
              onInput={(e) => setLoginEmail(e.currentTarget.value)}
            />
          </label>
          <label>
            Password
            <input
              type="password"
              autoComplete="current-password"
              required
              value={loginPassword}
              onInput={(e) => setLoginPassword(e.currentTarget.value)}
            />
          </label>
          <button type="submit" disabled={login.busy}>
            Sign in
          </button>
          <ErrorLine error={login.error} />
        </form>
      </main>
    </>
  )
}

interface SandboxView {
  entries: Entry[]
  quotas: Quota[]
  now: number
  scenario: string
  scenarios: { name: string; description: string }[]
  frozen: boolean
}

const SignedIn = (props: { me: Me; onSignedOut(): void }) => {
  const [keys, setKeys] = useState<Key[]>([])
  const [view, setView] = useState<SandboxView>()
  const [version, setVersion] = useState(0)
  const top = useAction()
  const changed = () => setVersion((v) => v + 1)

  useEffect(() => {
    let stopped = false
    const read = async () => {
      try {
        const [listed, entries, quotas, scenario, clock] = await Promise.all([
          account<Key[]>('GET', '/keys'),
          sandbox<Entry[]>('GET', '/requests'),
          account<Quota[]>('GET', '/quotas'),
          sandbox<{ name: string; scenarios: { name: string; description: string }[] }>(
            'GET',
            '/scenario',
          ),
          sandbox<{ now: string; frozen: boolean }>('GET', '/clock'),
        ])
        if (stopped) return
        setKeys(listed)
        setView({
          entries,
          quotas,
          now: Date.parse(clock.now),
          frozen: clock.frozen,
          scenario: scenario.name,
          scenarios: scenario.scenarios,
        })
      } catch (error) {
        if (error instanceof ControlError && error.status === 401) props.onSignedOut()
      }
    }
    void read()
    const timer = setInterval(() => void read(), POLL_MS)
    return () => {
      stopped = true
      clearInterval(timer)
    }
  }, [version])

  return (
    <>
      <header class="top">
        <h1>
          petstore-sandbox <span class="thin">portal</span>
        </h1>
        <p class="api">
          API <code>{`${location.origin}/v1`}</code> · signed in as{' '}
          <strong>{props.me.email}</strong>
        </p>
        <div class="top-controls">
          {view !== undefined && (
            <span class="badge scenario-badge">scenario: {view.scenario}</span>
          )}
          <button
            type="button"
            disabled={top.busy}
            onClick={() =>
              void top.run(async () => {
                await sandbox('POST', '/reset')
                changed()
              })
            }
          >
            Reset my sandbox
          </button>
          <button
            type="button"
            class="quiet"
            onClick={() =>
              void top.run(async () => {
                await account('POST', '/logout')
                useCsrfToken(null)
                props.onSignedOut()
              })
            }
          >
            Sign out
          </button>
        </div>
        <ErrorLine error={top.error} />
      </header>
      <main class="grid">
        <RequestLog entries={view?.entries ?? []} keys={keys} />
        <div class="side">
          <KeysPanel keys={keys} quotas={view?.quotas ?? []} onChanged={changed} />
          <KeyChart entries={view?.entries ?? []} keys={keys} now={view?.now} />
          <ReportPanel requests={view?.entries.length ?? 0} />
        </div>
        <div class="controls">
          <ScenarioPanel
            current={view?.scenario}
            scenarios={view?.scenarios ?? []}
            onChanged={changed}
          />
          <ClockPanel now={view?.now} frozen={view?.frozen ?? false} onChanged={changed} />
        </div>
      </main>
    </>
  )
}

const statusClass = (status: number | null): string =>
  status === null ? 's-none' : status === 429 ? 's-429' : `s-${Math.floor(status / 100)}xx`

/** Which of the account's keys made a request (the journal names a key by a fingerprint of its id). */
const keyName = (keys: Key[], ref: string | null): string | undefined =>
  ref === null ? undefined : keys.find((k) => keyRef(k.id) === ref)?.name

const RequestLog = (props: { entries: Entry[]; keys: Key[] }) => {
  const newest = [...props.entries].reverse()
  return (
    <section class="panel log" aria-labelledby="log-title">
      <div class="panel-head">
        <h2 id="log-title">My requests</h2>
        <span class="muted">{formatCount(props.entries.length)} kept (at most 1,000)</span>
      </div>
      {newest.length === 0 ? (
        <p class="empty">No requests yet. Call the API with one of your keys.</p>
      ) : (
        <ul class="portal-log" aria-live="polite">
          {newest.map((entry) => (
            <li key={entry.seq} class="log-entry">
              <span class="time">{entry.time.slice(11, 19)}</span>
              <span class="method">{entry.method}</span>
              <span class="url">
                {new URL(entry.url, location.origin).pathname}
                {new URL(entry.url, location.origin).search}
                <span class="muted small"> {keyName(props.keys, entry.keyRef) ?? ''}</span>
              </span>
              <span class={`status ${statusClass(entry.status)}`}>
                {entry.status ?? 'none'}
                {entry.code === null ? '' : ` ${entry.code}`}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

const PLANS = ['free', 'pro', 'business'] as const

const KeysPanel = (props: { keys: Key[]; quotas: Quota[]; onChanged(): void }) => {
  const [name, setName] = useState('')
  const [plan, setPlan] = useState<(typeof PLANS)[number]>('free')
  const [shown, setShown] = useState<{ name: string; key: string }>()
  const action = useAction()
  const made = (key: Key & { key: string }) => {
    setShown({ name: key.name, key: key.key })
    props.onChanged()
  }
  return (
    <section class="panel" aria-labelledby="keys-title">
      <div class="panel-head">
        <h2 id="keys-title">My API keys</h2>
        <span class="muted">{props.keys.length} of 10</span>
      </div>
      {shown !== undefined && (
        <div class="shown-once" role="status">
          <p>
            New key <strong>{shown.name}</strong>, shown this once: copy it now.
          </p>
          <code class="key new-key">{shown.key}</code>
        </div>
      )}
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Quota now</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {props.keys.map((key) => {
              const quota = props.quotas.find((q) => q.id === key.id)
              const minute = quota?.bucket?.minuteUsed ?? 0
              const day = quota?.bucket?.dayUsed ?? 0
              return (
                <tr key={key.id} class="key-row">
                  <td>
                    <strong>{key.name}</strong> <span class="badge">{key.plan}</span>
                    <br />
                    <code class="key">{key.prefix}…</code>
                    <br />
                    <span class="muted small">
                      last used {key.lastUsedAt === null ? 'never' : key.lastUsedAt.slice(0, 16)}
                      {key.expiresAt === undefined ? '' : `, ends ${key.expiresAt.slice(0, 16)}`}
                    </span>
                  </td>
                  <td>
                    <div class="window">
                      <span class="window-label">
                        minute {formatCount(minute)} / {formatCount(key.limits.perMinute)}
                      </span>
                      <meter
                        class="bar"
                        min={0}
                        max={key.limits.perMinute}
                        value={minute}
                        aria-label={`${key.name}: minute window`}
                      />
                    </div>
                    <div class="window">
                      <span class="window-label">
                        day {formatCount(day)} / {formatCount(key.limits.perDay)}
                      </span>
                      <meter
                        class="bar"
                        min={0}
                        max={key.limits.perDay}
                        value={day}
                        aria-label={`${key.name}: day window`}
                      />
                    </div>
                  </td>
                  <td>
                    <div class="key-actions">
                      <button
                        type="button"
                        disabled={action.busy}
                        onClick={() =>
                          void action.run(async () =>
                            made(
                              await account<Key & { key: string }>('POST', `/keys/${key.id}/roll`),
                            ),
                          )
                        }
                      >
                        Roll
                      </button>
                      <button
                        type="button"
                        class="danger"
                        disabled={action.busy}
                        onClick={() =>
                          void action.run(async () => {
                            await account('DELETE', `/keys/${key.id}`)
                            setShown(undefined)
                            props.onChanged()
                          })
                        }
                      >
                        Revoke
                      </button>
                    </div>
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </div>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault()
          void action.run(async () => {
            made(await account<Key & { key: string }>('POST', '/keys', { name, plan }))
            setName('')
          })
        }}
      >
        <label>
          Name
          <input
            type="text"
            required
            maxLength={100}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </label>
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
        <button type="submit" disabled={action.busy}>
          Make a key
        </button>
      </form>
      <ErrorLine error={action.error} />
    </section>
  )
}

const MINUTES = 30
const SWATCHES = ['c-2xx', 'c-4xx', 'c-429', 'c-5xx', 'c-3xx', 'c-none']

/** Each key's requests per minute over the last 30 minutes of the sandbox clock, stacked. */
const KeyChart = (props: { entries: Entry[]; keys: Key[]; now: number | undefined }) => {
  const now = props.now ?? Date.now()
  const refs = props.keys.map((k) => keyRef(k.id))
  const columns = Array.from({ length: MINUTES }, () => refs.map(() => 0))
  for (const entry of props.entries) {
    const k = entry.keyRef === null ? -1 : refs.indexOf(entry.keyRef)
    const ago = Math.floor((now - Date.parse(entry.time)) / 60_000)
    const column = columns[MINUTES - 1 - ago]
    if (k !== -1 && ago >= 0 && column !== undefined) column[k] = (column[k] ?? 0) + 1
  }
  const max = Math.max(1, ...columns.map((c) => c.reduce((a, b) => a + b, 0)))
  return (
    <section class="panel" aria-labelledby="key-chart-title">
      <div class="panel-head">
        <h2 id="key-chart-title">Requests by key</h2>
        <span class="muted">per minute, last 30 minutes (sandbox clock)</span>
      </div>
      <svg
        class="chart"
        viewBox={`0 0 ${MINUTES} 40`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`Requests per minute by key, peak ${max}`}
      >
        <line class="axis" x1="0" y1="40" x2={MINUTES} y2="40" />
        {columns.map((column, x) => {
          let y = 40
          return column.map((n, k) => {
            if (n === 0) return null
            const h = (n / max) * 38
            y -= h
            return (
              <rect
                key={`${x}-${k}`}
                class={SWATCHES[k % SWATCHES.length]}
                x={x + 0.1}
                y={y}
                width={0.8}
                height={h}
              />
            )
          })
        })}
      </svg>
      <ul class="legend">
        {props.keys.map((key, k) => (
          <li key={key.id}>
            <span class={`swatch ${SWATCHES[k % SWATCHES.length]}`} aria-hidden="true" />
            {key.name} <strong>{columns.reduce((a, column) => a + (column[k] ?? 0), 0)}</strong>
          </li>
        ))}
      </ul>
    </section>
  )
}

interface Finding {
  rule: string
  level: string
  message: string
  seqs: number[]
}

const ReportPanel = (props: { requests: number }) => {
  const [findings, setFindings] = useState<Finding[]>()
  const action = useAction()
  return (
    <section class="panel" aria-labelledby="report-title">
      <div class="panel-head">
        <h2 id="report-title">How my client behaves</h2>
        <button
          type="button"
          class="quiet"
          disabled={action.busy}
          onClick={() =>
            void action.run(async () => {
              const report = await sandbox<{ findings: Finding[] }>('GET', '/report')
              setFindings(report.findings)
            })
          }
        >
          Judge {props.requests} {props.requests === 1 ? 'request' : 'requests'}
        </button>
      </div>
      {findings !== undefined &&
        (findings.length === 0 ? (
          <p class="empty">No findings: retries, back-off and keys look right.</p>
        ) : (
          <ul class="findings">
            {findings.map((f) => (
              <li key={`${f.rule}-${f.seqs[0]}`} class={`finding is-${f.level}`}>
                <span class="level">{f.level}</span> <code>{f.rule}</code>
                <p>{f.message}</p>
              </li>
            ))}
          </ul>
        ))}
      <ErrorLine error={action.error} />
    </section>
  )
}

const ScenarioPanel = (props: {
  current: string | undefined
  scenarios: { name: string; description: string }[]
  onChanged(): void
}) => {
  const action = useAction()
  return (
    <section class="panel" aria-labelledby="scenario-title">
      <div class="panel-head">
        <h2 id="scenario-title">Scenario or timeline</h2>
      </div>
      <label>
        How my sandbox answers
        <select
          value={props.current}
          disabled={action.busy}
          onChange={(e) => {
            const name = e.currentTarget.value
            void action.run(async () => {
              await sandbox('PUT', '/scenario', { name })
              props.onChanged()
            })
          }}
        >
          {props.scenarios.map((s) => (
            <option key={s.name} value={s.name} title={s.description}>
              {s.name}
            </option>
          ))}
        </select>
      </label>
      <ErrorLine error={action.error} />
    </section>
  )
}

const ClockPanel = (props: { now: number | undefined; frozen: boolean; onChanged(): void }) => {
  const action = useAction()
  const move = (body: unknown) =>
    void action.run(async () => {
      await sandbox('POST', '/clock', body)
      props.onChanged()
    })
  return (
    <section class="panel" aria-labelledby="clock-title">
      <div class="panel-head">
        <h2 id="clock-title">Clock</h2>
        <span class="muted">{props.frozen ? 'frozen' : 'real time'}</span>
      </div>
      <p class="clock-now">
        <code>{props.now === undefined ? '…' : new Date(props.now).toISOString()}</code>
      </p>
      <div class="buttons">
        <button type="button" disabled={action.busy} onClick={() => move({ advanceMs: 60_000 })}>
          +1 minute
        </button>
        <button type="button" disabled={action.busy} onClick={() => move({ advanceMs: 3_600_000 })}>
          +1 hour
        </button>
        <button
          type="button"
          disabled={action.busy}
          onClick={() => move({ advanceMs: 86_400_000 })}
        >
          +1 day
        </button>
        <button
          type="button"
          class="quiet"
          disabled={action.busy}
          onClick={() => move({ realTime: true })}
        >
          Real time
        </button>
      </div>
      <ErrorLine error={action.error} />
    </section>
  )
}
