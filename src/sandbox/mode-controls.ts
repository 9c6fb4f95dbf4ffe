import type { SessionModes } from '../upstream/session-modes.js'
import { SESSION_MODES, type SessionMode } from '../upstream/upstream-options.js'

/** How a session answers, switched at run time (contract §17). */
export interface ModeControls {
  /** `sandbox`, `upstream` (forwarded to the upstream) or `replay` (answered from the recording). */
  get(): SessionMode
  /** Moves the session to a mode this sandbox has; throws a TypeError for another. */
  set(mode: SessionMode): void
  /** The modes this sandbox has: `sandbox`, plus `upstream` with a URL and `replay` with a recording. */
  list(): SessionMode[]
}

/**
 * The mode controls of one session.
 *
 * @example
 * sandbox.mode.set('sandbox') // this session answers from the sandbox again
 */
export const createModeControls = (modes: SessionModes, id: string): ModeControls => ({
  get: () => modes.get(id),
  set(mode) {
    if (!SESSION_MODES.includes(mode))
      throw new TypeError(
        `Failed to set the mode: "${String(mode)}" is not a mode. Use one of ${SESSION_MODES.join(', ')}.`,
      )
    if (!modes.available.includes(mode))
      throw new TypeError(
        `Failed to set the mode: "${mode}" needs ${mode === 'upstream' ? 'an upstream URL' : 'a recording to replay'} (the upstream option). This sandbox has ${modes.available.join(', ')}.`,
      )
    modes.set(id, mode)
  },
  list: () => [...modes.available],
})
