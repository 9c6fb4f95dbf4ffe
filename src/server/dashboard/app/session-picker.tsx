import { useEffect, useState } from 'preact/hooks'
import { ControlError, call, selectSession } from './api.js'

interface SessionInfo {
  id: string
}

const parseSessions = (body: unknown): SessionInfo[] => {
  const list = Array.isArray(body)
    ? body
    : typeof body === 'object' &&
        body !== null &&
        'sessions' in body &&
        Array.isArray(body.sessions)
      ? body.sessions
      : []
  return list.flatMap((s: unknown) =>
    typeof s === 'object' && s !== null && 'id' in s && typeof s.id === 'string'
      ? [{ id: s.id }]
      : [],
  )
}

/**
 * Picks the session the controls act on (contract §12). Hidden while the
 * server has no sessions (GET /__sandbox/sessions answers 404).
 */
export const SessionPicker = (props: { version: number; onChanged(): void }) => {
  const [sessions, setSessions] = useState<SessionInfo[] | undefined>()
  // false once the server answered 404: it has no sessions, so stop asking.
  const [supported, setSupported] = useState(true)
  const [chosen, setChosen] = useState('default')
  useEffect(() => {
    void props.version
    if (!supported) return
    call('GET', '/sessions').then(
      (body) => setSessions(parseSessions(body)),
      (error: unknown) => {
        if (error instanceof ControlError && error.status === 404) {
          setSupported(false)
          setSessions(undefined)
        }
      },
    )
  }, [props.version, supported])
  if (sessions === undefined) return null
  const ids = [...new Set(['default', ...sessions.map((s) => s.id)])]
  return (
    <label class="session-picker">
      Session
      <select
        value={chosen}
        onChange={(e) => {
          const id = e.currentTarget.value
          setChosen(id)
          selectSession(id === 'default' ? null : id)
          props.onChanged()
        }}
      >
        {ids.map((id) => (
          <option key={id} value={id}>
            {id}
          </option>
        ))}
      </select>
    </label>
  )
}
