/** One answered request, as the log shows it. */
export interface RequestLogEntry {
  method: string
  /** Path and query, secret query parameters redacted; never headers, so no Authorization value. */
  path: string
  /** The status, or `dropped` when the connection was failed on purpose or lost. */
  status: number | 'dropped'
  ms: number
  /** The scenario that answered, or `-` outside the API. */
  scenario: string
  /** The plan of the caller's key, `no-key` without one, `unknown-key` for a key the sandbox does not know, `-` outside the API. */
  plan: string
  /** The session that answered, or `-` outside the API. */
  session: string
  /** Where the answer came from, in upstream mode (`upstream`, `replay`); absent for the sandbox's own. */
  source?: 'upstream' | 'replay' | undefined
  /** The contract rules an upstream's answer broke (contract §17); absent or empty when none. */
  violations?: readonly string[] | undefined
}

const MAX_PATH = 120

/**
 * One request, one line, aligned for a terminal:
 * `12:00:01.234 GET    /v1/pets?limit=5  200   1.4ms  default  free`.
 * In upstream mode the line says where the answer came from and names the
 * rules it broke: `… default  upstream  ! spec.rate-limit.headers, spec.errors.body`.
 *
 * @example
 * console.log(formatLogLine({ method: 'GET', path: '/v1/pets', status: 200, ms: 1.4, scenario: 'default', plan: 'free' }))
 */
export const formatLogLine = (entry: RequestLogEntry, at: Date = new Date()): string => {
  const time = at.toISOString().slice(11, 23)
  const path = entry.path.length > MAX_PATH ? `${entry.path.slice(0, MAX_PATH - 1)}…` : entry.path
  return [
    time,
    escapeControls(entry.method).padEnd(7),
    escapeControls(path).padEnd(28),
    String(entry.status).padStart(3),
    `${entry.ms.toFixed(1)}ms`.padStart(8),
    escapeControls(entry.scenario).padEnd(12),
    escapeControls(entry.plan).padEnd(10),
    escapeControls(entry.session),
    ...(entry.source === undefined ? [] : [` ${entry.source}`]),
    ...(entry.violations === undefined || entry.violations.length === 0
      ? []
      : [` ! ${escapeControls(entry.violations.join(', '))}`]),
  ].join(' ')
}

/**
 * Control characters (C0, DEL, C1) and the line and paragraph separators,
 * shown as `\xNN` / `\uNNNN`: a logged value can neither rewrite the
 * terminal nor forge a line (contract §14).
 */
export const escapeControls = (text: string): string =>
  text.replace(/[\p{Cc}\u2028\u2029]/gu, (c) => {
    const code = c.charCodeAt(0)
    return code <= 0xff
      ? `\\x${code.toString(16).padStart(2, '0')}`
      : `\\u${code.toString(16).padStart(4, '0')}`
  })
