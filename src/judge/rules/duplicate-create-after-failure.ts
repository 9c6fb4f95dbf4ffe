import type { Finding } from '../finding.js'
import { count, describeCaller, type JudgedRequest } from '../judged-request.js'
import type { Rule } from './rule.js'

/** How far back a create counts as the one being retried (contract §18). */
const WINDOW_MS = 60_000

/** Keys sorted at every level: two bodies with the same data compare equal. */
const canonical = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(canonical)
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, inner]) => [key, canonical(inner)]),
    )
  return value
}

const bodyKey = (text: string | null): string | null => {
  if (text === null) return null
  try {
    return `json:${JSON.stringify(canonical(JSON.parse(text)))}`
  } catch {
    return `text:${text}`
  }
}

const petId = (request: JudgedRequest): string => {
  try {
    const id = (JSON.parse(request.responseBody ?? '') as { id?: unknown }).id
    return typeof id === 'number' ? ` (pet ${id})` : ''
  } catch {
    return ''
  }
}

const isCreate = (request: JudgedRequest): boolean =>
  request.operation === 'createPet' && request.method === 'POST'

/**
 * `duplicate-create-after-failure` (warning): a `POST /v1/pets` whose body
 * equals one the same caller sent within the previous 60 seconds that the
 * sandbox answered 201 while the client never received that answer whole
 * (`delivered: false`): it gave up on it (`aborted`: a slow answer, a
 * `slow-body`), or a fault lost it (`commit-then-drop`, `reset-mid-body`,
 * `truncated-body`, `stall-after-headers`; contract §19). One finding per
 * create that was repeated, with every repeat.
 *
 * @example
 * duplicateCreateAfterFailure(requests) // [{ rule: 'duplicate-create-after-failure', seqs: [4, 5], … }]
 */
export const duplicateCreateAfterFailure: Rule = (requests) => {
  const creates = requests.filter(isCreate)
  const repeats = new Set<number>()
  const findings: Finding[] = []
  for (const [index, original] of creates.entries()) {
    if (original.status !== 201 || original.delivered || repeats.has(original.seq)) continue
    const key = bodyKey(original.requestBody)
    if (key === null) continue
    const again = creates
      .slice(index + 1)
      .filter(
        (r) =>
          r.caller === original.caller &&
          r.at >= original.at &&
          r.at - original.at <= WINDOW_MS &&
          bodyKey(r.requestBody) === key,
      )
    if (again.length === 0) continue
    for (const r of again) repeats.add(r.seq)
    findings.push({
      rule: 'duplicate-create-after-failure',
      level: 'warning',
      message: `${describeCaller(original.caller)} sent the same POST /v1/pets body again (${again.map((r) => `#${r.seq}`).join(', ')}) after ${original.aborted ? 'giving up on' : `losing the answer to (${original.fault ?? 'a failed connection'})`} the create at #${original.seq}, which had in fact succeeded: 201${petId(original)}. The pet may now exist ${count(again.length + 1, 'time')}. After a failed create, look the pet up (GET /v1/pets) before sending it again.`,
      seqs: [original.seq, ...again.map((r) => r.seq)],
    })
  }
  return findings
}
