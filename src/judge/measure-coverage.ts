// Loaded on demand. The operations come from the caller: importing the route table
// here would split the code that loads at start in a browser app (decision 0032).
import {
  type ContractOperationId,
  isContractOperationId,
  type OperationId,
} from '../contract/operation-ids.js'
import type { JournalEntry } from '../journal/journal.js'
import type { Operation } from '../operations/operation.js'
import { statusesOf } from '../validation/allowed-statuses.js'

/** A notable header the client met: `Retry-After`, `Link: rel="next"`, `Sunset`. */
export type NotableHeader = 'Retry-After' | 'Link: rel="next"' | 'Sunset'

/** How a connection failed instead of an answer, or that the client gave up (`aborted`). */
export type CoverageFault = 'network-error' | 'timeout' | 'aborted'

/** What the client met of one operation. */
export interface OperationCoverage {
  operation: OperationId
  method: string
  /** The path template below the base path, e.g. `/pets/{petId}`. */
  path: string
  requests: number
  /** The contract's statuses of the operation (and any other it met), ascending, with how often each was met. */
  statuses: { status: number; count: number }[]
  /** The operation's notable headers, with how many answers carried each. */
  headers: { header: NotableHeader; count: number }[]
  faults: { fault: CoverageFault; count: number }[]
  /** What was never met: statuses (as text), headers and transport faults, e.g. `["429", "Retry-After", "timeout"]`. */
  unmet: string[]
}

/** Which answers of the contract a client met in one session (its tests, say). */
export interface CoverageReport {
  session: string
  /** Requests in the session's journal. */
  requests: number
  operations: OperationCoverage[]
  /** Requests that matched no operation (404 route_not_found, 405, …). */
  unrouted: number
}

const HEADERS: Readonly<Record<ContractOperationId, readonly NotableHeader[]>> = {
  listPets: ['Retry-After', 'Link: rel="next"'],
  createPet: ['Retry-After'],
  getPet: ['Retry-After', 'Sunset'],
}
// An added operation (decision 0042): the pipeline's 429 and a scenario's 503 carry it.
const ADDED_HEADERS: readonly NotableHeader[] = ['Retry-After']

const FAULTS: readonly CoverageFault[] = ['network-error', 'timeout', 'aborted']

const carries = (entry: JournalEntry, header: NotableHeader): boolean => {
  const headers = entry.response?.headers
  if (headers === undefined) return false
  switch (header) {
    case 'Retry-After':
      return headers['retry-after'] !== undefined
    case 'Sunset':
      return headers.sunset !== undefined
    default:
      return /;\s*rel="?next"?/i.test(headers.link ?? '')
  }
}

const faultsOf = (entry: JournalEntry): CoverageFault[] => {
  const met: CoverageFault[] = []
  if (entry.status === null) met.push(entry.fault ?? 'network-error')
  if (entry.aborted) met.push('aborted')
  return met
}

/**
 * For each operation, which of the contract's statuses, notable headers and
 * transport faults the client met in one session's journal, so a team sees
 * what its tests never exercised (a 429 on createPet, say).
 *
 * @example
 * measureCoverage(sandbox.journal.list(), { session: 'default', operations: OPERATIONS }).operations[1].unmet
 * // ['400', '401', '413', '429', '500', '503', '507', 'Retry-After', 'network-error', 'timeout']
 */
export const measureCoverage = (
  entries: readonly JournalEntry[],
  options: {
    session: string
    /** The sandbox's operations (`sandbox.operations`: the contract's, then any added ones). */
    operations: readonly Pick<Operation, 'id' | 'method' | 'path' | 'access' | 'statuses'>[]
  },
): CoverageReport => {
  const operations = options.operations.map((operation): OperationCoverage => {
    const mine = entries.filter((entry) => entry.operation === operation.id)
    const statusCounts = new Map<number, number>()
    for (const status of statusesOf(operation)) statusCounts.set(status, 0)
    for (const entry of mine)
      if (entry.status !== null)
        statusCounts.set(entry.status, (statusCounts.get(entry.status) ?? 0) + 1)
    const statuses = [...statusCounts]
      .sort((a, b) => a[0] - b[0])
      .map(([status, count]) => ({ status, count }))
    const notable = isContractOperationId(operation.id) ? HEADERS[operation.id] : ADDED_HEADERS
    const headers = notable.map((header) => ({
      header,
      count: mine.filter((entry) => carries(entry, header)).length,
    }))
    const faults = FAULTS.map((fault) => ({
      fault,
      count: mine.filter((entry) => faultsOf(entry).includes(fault)).length,
    }))
    const unmet = [
      ...statuses.filter((s) => s.count === 0).map((s) => String(s.status)),
      ...headers.filter((h) => h.count === 0).map((h) => h.header),
      // Giving up is the client's choice, not an answer of the contract.
      ...faults.filter((f) => f.count === 0 && f.fault !== 'aborted').map((f) => f.fault),
    ]
    return {
      operation: operation.id,
      method: operation.method,
      path: operation.path,
      requests: mine.length,
      statuses,
      headers,
      faults,
      unmet,
    }
  })
  return {
    session: options.session,
    requests: entries.length,
    operations,
    unrouted: entries.filter((entry) => entry.operation === null).length,
  }
}
