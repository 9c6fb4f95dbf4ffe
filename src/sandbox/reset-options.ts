/** Options of `sandbox.reset()`. */
export interface ResetOptions {
  /**
   * `'all'`: also drop every session other than `default`, with the run-time
   * keys bound to them (what a test suite that makes sessions wants after each
   * test). Left out, only this session is reset.
   */
  sessions?: 'all'
}

/**
 * Reads `reset()`'s options: whether every other session goes too. Throws a
 * TypeError for anything else.
 *
 * @example
 * readResetScope({ sessions: 'all' }) // 'all'
 */
export const readResetScope = (options: unknown): 'all' | 'this' => {
  if (options === undefined) return 'this'
  if (typeof options !== 'object' || options === null)
    throw new TypeError(
      `Failed to reset: options must be an object such as { sessions: 'all' }, got ${options === null ? 'null' : typeof options}.`,
    )
  const { sessions, ...rest } = options as { sessions?: unknown }
  const unknown = Object.keys(rest)
  if (unknown.length > 0)
    throw new TypeError(
      `Failed to reset: unknown option ${unknown.map((n) => `"${n}"`).join(', ')}. Known options: sessions.`,
    )
  if (sessions === undefined) return 'this'
  if (sessions === 'all') return 'all'
  throw new TypeError(
    `Failed to reset: sessions must be 'all' (or left out to reset this session only), got ${JSON.stringify(sessions) ?? String(sessions)}.`,
  )
}
