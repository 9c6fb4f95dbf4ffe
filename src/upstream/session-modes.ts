import type { SessionMode } from './upstream-options.js'

/** The mode of every session: the start mode, unless a session was moved to another. */
export interface SessionModes {
  /** The modes a session may be in (`sandbox` always; `upstream` with a URL; `replay` with a recording). */
  readonly available: readonly SessionMode[]
  readonly start: SessionMode
  get(session: string): SessionMode
  /** Moves a session; the caller has checked that the mode is available. */
  set(session: string, mode: SessionMode): void
  /** Back to the start mode (a reset, a dropped session). */
  forget(session: string): void
}

/**
 * The modes of the sessions of this process: only the sessions moved away
 * from the start mode are held, so a lookup on the request path is one Map read.
 *
 * @example
 * const modes = createSessionModes('upstream', ['sandbox', 'upstream'])
 * modes.set('w1', 'sandbox')
 */
export const createSessionModes = (
  start: SessionMode,
  available: readonly SessionMode[],
): SessionModes => {
  const moved = new Map<string, SessionMode>()
  return {
    available,
    start,
    get: (session) => moved.get(session) ?? start,
    set(session, mode) {
      if (mode === start) moved.delete(session)
      else moved.set(session, mode)
    },
    forget: (session) => {
      moved.delete(session)
    },
  }
}
