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
 * TypeError for anything but nothing, `{}` or `{ sessions: 'all' }`.
 *
 * @example
 * readResetScope({ sessions: 'all' }) // 'all'
 */
export const readResetScope = (options: unknown): 'all' | 'this' => {
  if (options === undefined) return 'this'
  const { sessions, ...rest } = Object(options) as { sessions?: unknown }
  if (typeof options === 'object' && options !== null && Object.keys(rest).length === 0) {
    if (sessions === undefined) return 'this'
    if (sessions === 'all') return 'all'
  }
  let shown: string
  try {
    shown = JSON.stringify(options) ?? String(options)
  } catch {
    shown = String(options)
  }
  throw new TypeError(
    `Failed to reset: options must be { sessions: 'all' } (also drop every other session) or left out, got ${shown}.`,
  )
}
