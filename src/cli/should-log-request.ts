import type { RequestLogEntry } from '../server/format-log-line.js'

/**
 * Whether the CLI's request log shows a request: every API request, and the
 * control API's calls that change something or fail. The dashboard's own reads
 * (its page, assets, panels and event stream: successful GETs under
 * `/__sandbox`) are left out, or an open dashboard writes a line every few
 * hundred milliseconds and buries the client's requests (issue 31, item 15).
 *
 * @example
 * shouldLogRequest({ method: 'GET', path: '/__sandbox/sessions', status: 200, … }) // false
 */
export const shouldLogRequest = (entry: RequestLogEntry): boolean => {
  const control = entry.path === '/__sandbox' || entry.path.startsWith('/__sandbox/')
  if (!control) return true
  const read = entry.method === 'GET' || entry.method === 'HEAD'
  return !read || (typeof entry.status === 'number' && entry.status >= 400)
}
