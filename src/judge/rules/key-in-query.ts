import { isSecretName } from '../../journal/redact-secrets.js'
import type { Finding } from '../finding.js'
import { count } from '../judged-request.js'
import type { Rule } from './rule.js'

const queryNames = (url: string): string[] => {
  try {
    return [...new Set(new URL(url).searchParams.keys())]
  } catch {
    return []
  }
}

/**
 * `key-in-query` (error): a query parameter the journal's redaction treats as
 * a secret (`api_key`, `token`, `access_token`…, contract §14). One finding
 * per parameter name.
 *
 * @example
 * keyInQuery(requests) // [{ rule: 'key-in-query', level: 'error', seqs: [3], … }]
 */
export const keyInQuery: Rule = (requests) => {
  const byName = new Map<string, number[]>()
  for (const request of requests)
    for (const name of queryNames(request.url))
      if (isSecretName(name)) {
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
