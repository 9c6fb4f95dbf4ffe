import { invalidParameter } from '../../http/errors.js'
import { singleParam } from '../../http/query.js'
import { DEFAULT_SESSION, type SessionState } from '../../state/sandbox-state.js'

/**
 * `POST /__sandbox/reset?sessions=all`: reset `default` and drop every other
 * session. Only without a session selector: it acts on every session, so a
 * caller working in one (a test's own) is told rather than obeyed.
 *
 * @example
 * if (resetsEverySession(url, session)) await sandbox.reset({ sessions: 'all' })
 */
export const resetsEverySession = (url: URL, session: SessionState): boolean => {
  const sessions = singleParam(url.searchParams, 'sessions')
  if (sessions === undefined) return false
  if (sessions !== 'all')
    throw invalidParameter('sessions', 'must be "all" (reset default and drop every other session)')
  if (session.id !== DEFAULT_SESSION)
    throw invalidParameter(
      'sessions',
      `is "all", which acts on every session; leave out __session and X-Sandbox-Session (they select "${session.id}")`,
    )
  return true
}
