/** One answered request, as the log shows it. */
export interface RequestLogEntry {
  method: string
  /** Path and query; never headers, so no Authorization value. */
  path: string
  /** The status, or `dropped` when the connection was failed on purpose or lost. */
  status: number | 'dropped'
  ms: number
  /** The scenario that answered, or `-` outside the API. */
  scenario: string
  /** The plan of the caller's key, `no-key` without a valid key, or `-` outside the API. */
  plan: string
  /** The session that answered, or `-` outside the API. */
  session: string
}

const MAX_PATH = 120

/**
 * One request, one line, aligned for a terminal:
 * `12:00:01.234 GET    /v1/pets?limit=5  200   1.4ms  default  free`.
 *
 * @example
 * console.log(formatLogLine({ method: 'GET', path: '/v1/pets', status: 200, ms: 1.4, scenario: 'default', plan: 'free' }))
 */
export const formatLogLine = (entry: RequestLogEntry, at: Date = new Date()): string => {
  const time = at.toISOString().slice(11, 23)
  const path = entry.path.length > MAX_PATH ? `${entry.path.slice(0, MAX_PATH - 1)}…` : entry.path
  // Control characters in a path would rewrite the terminal; show them escaped.
  const safePath = path.replace(
    /\p{Cc}/gu,
    (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  )
  return [
    time,
    entry.method.padEnd(7),
    safePath.padEnd(28),
    String(entry.status).padStart(3),
    `${entry.ms.toFixed(1)}ms`.padStart(8),
    entry.scenario.padEnd(12),
    entry.plan.padEnd(10),
    entry.session,
  ].join(' ')
}
