import type { Finding } from '../finding.js'
import { count, type JudgedRequest } from '../judged-request.js'
import type { Rule } from './rule.js'

/** More than this many requests with a refused key is a finding (contract §18). */
const ALLOWED_AFTER_REFUSAL = 5

const refused = (request: JudgedRequest): boolean =>
  request.status === 401 && request.code === 'invalid_api_key'

/**
 * `repeated-invalid-key` (warning): more than 5 requests with a key after it
 * was answered 401 `invalid_api_key`. The count stops when the key is
 * accepted (a key created meanwhile). One finding per key.
 *
 * @example
 * repeatedInvalidKey(requests) // [{ rule: 'repeated-invalid-key', seqs: [1, 2, 3, 4, 5, 6, 7], … }]
 */
export const repeatedInvalidKey: Rule = (requests) => {
  const findings: Finding[] = []
  const open = new Map<string, { first: JudgedRequest; after: JudgedRequest[] }>()
  const close = (ref: string): void => {
    const state = open.get(ref)
    open.delete(ref)
    if (state === undefined || state.after.length <= ALLOWED_AFTER_REFUSAL) return
    findings.push({
      rule: 'repeated-invalid-key',
      level: 'warning',
      message: `The key ${ref} was answered 401 invalid_api_key at #${state.first.seq}, and ${count(state.after.length, 'more request')} used it anyway. A refused key stays refused: stop, and get a valid key instead of retrying.`,
      seqs: [state.first.seq, ...state.after.map((r) => r.seq)],
    })
  }
  for (const request of requests) {
    const ref = request.keyRef
    if (ref === null) continue
    const state = open.get(ref)
    if (state !== undefined) {
      if (request.caller === `key:${ref}`) close(ref)
      else state.after.push(request)
    } else if (refused(request)) open.set(ref, { first: request, after: [] })
  }
  for (const ref of [...open.keys()]) close(ref)
  return findings
}
