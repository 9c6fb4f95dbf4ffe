// Loaded on demand: only `petstore-sandbox report --from FILE.har` collects.
import type { JournalEntry } from '../journal/journal.js'
import type { ClientReport } from './finding.js'
import { type JudgedRequest, toJudgedRequest } from './judged-request.js'
import { judgeRequests } from './report-client.js'

/** Requests one by one in, one report per session out. */
export interface ReportCollector {
  add(entry: JournalEntry): void
  /** One report per session, in the order the sessions first appeared. */
  reports(): ClientReport[]
}

/** The mark the journal's redaction leaves; the only URLs a rule reads (`key-in-query`). */
const REDACTED = '(redacted)'

/**
 * Judges entries as they come without keeping them: each is read once into
 * the compact request the rules need ({@link toJudgedRequest}) and the rest
 * let go: headers, the time as text, bodies other than createPet's (the
 * duplicate-create rule compares those), URLs without a redacted secret.
 * Repeated strings (callers, key refs, methods, codes) are kept once. The
 * reports are byte for byte {@link reportClient}'s over the same entries.
 *
 * @example
 * const collector = createReportCollector()
 * for (const entry of entries) collector.add(entry)
 * collector.reports()
 */
export const createReportCollector = (): ReportCollector => {
  const sessions = new Map<string, JudgedRequest[]>()
  const strings = new Map<string, string>()
  const intern = <T extends string | null>(text: T): T => {
    if (text === null) return text
    const kept = strings.get(text)
    if (kept !== undefined) return kept as T
    strings.set(text, text)
    return text
  }
  return {
    add(entry) {
      const judged = toJudgedRequest(entry)
      const create = judged.operation === 'createPet'
      const compact: JudgedRequest = {
        ...judged,
        method: intern(judged.method),
        url: judged.url.includes(REDACTED) ? judged.url : '',
        caller: intern(judged.caller),
        keyRef: intern(judged.keyRef),
        code: intern(judged.code),
        requestBody: create ? judged.requestBody : null,
        responseBody: create ? judged.responseBody : null,
      }
      const list = sessions.get(entry.session)
      if (list === undefined) sessions.set(intern(entry.session), [compact])
      else list.push(compact)
    },
    reports: () => [...sessions].map(([session, requests]) => judgeRequests(requests, { session })),
  }
}
