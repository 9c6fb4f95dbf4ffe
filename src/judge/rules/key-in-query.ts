import type { Finding } from '../finding.js'
import { count } from '../judged-request.js'
import type { Rule } from './rule.js'

/**
 * What the journal's redaction (contract §14) put in place of a secret's value.
 * The rule reads the mark rather than the names: entries are redacted when
 * read (a HAR's too), and this module then imports no code of the sandbox's,
 * which keeps it out of what a browser app loads at start (decision 0032).
 */
const REDACTED = '(redacted)'

const secretNames = (url: string): string[] => {
  try {
    const names = new Set<string>()
    for (const [name, value] of new URL(url).searchParams) if (value === REDACTED) names.add(name)
    return [...names]
  } catch {
    return []
  }
}

/**
 * `key-in-query` (error): a query parameter the journal's redaction treats as
 * a secret (`api_key`, `token`, `access_token`…, contract §14): its value is
 * `(redacted)` in the entry's URL. One finding per parameter name.
 *
 * @example
 * keyInQuery(requests) // [{ rule: 'key-in-query', level: 'error', seqs: [3], … }]
 */
export const keyInQuery: Rule = (requests) => {
  const byName = new Map<string, number[]>()
  for (const request of requests)
    for (const name of secretNames(request.url)) {
      const seqs = byName.get(name)
      if (seqs === undefined) byName.set(name, [request.seq])
      else seqs.push(request.seq)
    }
  return [...byName].map(
    ([name, seqs]): Finding => ({
      rule: 'key-in-query',
      level: 'error',
      message: `${count(seqs.length, 'request')} sent a credential in the query string (${name}=…), where server logs, proxies and browser history keep it. Send the key only as Authorization: Bearer <key>.`,
      seqs,
    }),
  )
}
