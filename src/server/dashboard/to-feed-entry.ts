import type { JournalEntry } from '../../core/journal.js'
import type { SandboxResponse } from '../../core/types.js'
import type { FeedEntry, FeedMessage } from './dashboard-types.js'

/** Bodies longer than this are cut for display. */
export const FEED_BODY_LIMIT = 8_192

// The journal redacts Authorization; these carry secrets too (contract §14).
const SECRET_HEADERS = new Set(['cookie', 'proxy-authorization', 'x-api-key', 'set-cookie'])
const SECRET_PARAM = /^(api[_-]?key|key|token|access[_-]?token|secret|password)$/i

const redactHeaders = (headers: Record<string, string>): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    out[name] = SECRET_HEADERS.has(name.toLowerCase()) ? '(redacted)' : value
  }
  return out
}

const redactUrl = (pathAndQuery: string): string => {
  const query = pathAndQuery.indexOf('?')
  if (query === -1) return pathAndQuery
  const params = pathAndQuery
    .slice(query + 1)
    .split('&')
    .map((pair) => {
      const name = pair.split('=', 1)[0] ?? ''
      let decoded = name
      try {
        decoded = decodeURIComponent(name)
      } catch {}
      return SECRET_PARAM.test(decoded) ? `${name}=(redacted)` : pair
    })
  return `${pathAndQuery.slice(0, query)}?${params.join('&')}`
}

const capped = (body: string | null): Pick<FeedMessage, 'body' | 'bodyTruncated'> =>
  body !== null && body.length > FEED_BODY_LIMIT
    ? { body: body.slice(0, FEED_BODY_LIMIT), bodyTruncated: true }
    : { body, bodyTruncated: false }

/**
 * The log's entry for a request the sandbox answered: the journal entry plus
 * the answer, secrets redacted and bodies capped. A failed connection
 * (network-error, timeout) has no status and no response.
 *
 * @example
 * feed.publish(toFeedEntry({ entry: journal.list().at(-1), response, requestBody: null }))
 */
export const toFeedEntry = (input: {
  entry: JournalEntry
  response: SandboxResponse | undefined
  requestBody: string | null
  durationMs?: number | undefined
  session?: string | undefined
}): FeedEntry => {
  const { entry, response } = input
  const failed = response?.fault !== undefined
  return {
    seq: entry.seq,
    time: entry.time,
    session: input.session ?? 'default',
    method: entry.method,
    url: redactUrl(entry.url),
    status: failed ? null : entry.status,
    fault: response?.fault,
    scenario: entry.scenario,
    plan: entry.plan,
    durationMs: input.durationMs,
    request: { headers: redactHeaders(entry.headers), ...capped(input.requestBody) },
    response:
      response === undefined || failed
        ? null
        : { headers: redactHeaders(response.headers), ...capped(response.body) },
  }
}
