import { OPERATION_IDS } from '../contract/operation-ids.js'
import type { Awaitable } from '../http/awaitable.js'
import type { JournalEntry } from '../journal/journal.js'
import { keyRef } from '../journal/key-ref.js'
import type { ClientReport } from '../judge/finding.js'
import type { JudgeTools } from '../judge/judge-tools.js'
import type { CoverageReport } from '../judge/measure-coverage.js'
import type { ExpectOptions, RequestMatch } from '../judge/request-match.js'
import type { OpenApiOperations } from '../openapi/create-openapi-operations.js'
import type { Operation } from '../operations/operation.js'
import { CONTRACT_ROUTES, type RouteTable } from '../operations/route-table.js'
import type { PactExport, PactOptions } from '../pact/pact-document.js'
import { checkPactOptions } from '../pact/pact-names.js'

/** The judge's tools: passed in, so its lazily loaded code shares no module with the start-up code. */
export const JUDGE_TOOLS: JudgeTools = { keyRef, operationIds: OPERATION_IDS }

/**
 * The judge's tools for a sandbox's operations: the contract's (shared) or,
 * with added operations, tools knowing their ids too (decision 0042).
 *
 * @example
 * judgeToolsFor(sandbox.operations).operationIds // ['listPets', 'createPet', 'getPet', 'GET /categories']
 */
export const judgeToolsFor = (operations: readonly Operation[]): JudgeTools =>
  operations === CONTRACT_ROUTES.operations
    ? JUDGE_TOOLS
    : { keyRef, operationIds: operations.map((operation) => operation.id) }

/** A session's journal, read when asked (memory now, a shared store later). */
type ReadJournal = () => Awaitable<JournalEntry[]>

/** What the controls of a session offer to judge its client (issue 23). */
export interface JournalJudge {
  find(match?: RequestMatch): Promise<JournalEntry[]>
  expect(match: RequestMatch, options?: ExpectOptions): Promise<JournalEntry[]>
  report(): Promise<ClientReport>
  coverage(): Promise<CoverageReport>
  pact(options: PactOptions): Promise<PactExport>
}

/**
 * The judging controls of one session, over its journal as the state seam
 * reads it (so a shared store's journal, written by every instance, is the
 * one judged). Every one is asynchronous and imports its code when first
 * called: an app that never asserts never loads it (decision 0032).
 *
 * @example
 * const judge = createJournalJudge('default', () => session.listJournal())
 * await judge.expect({ method: 'POST', path: '/v1/pets' }, { times: 1 })
 */
export const createJournalJudge = (
  session: string,
  read: ReadJournal,
  routes: RouteTable = CONTRACT_ROUTES,
  /** The `openapi` option's operations: the pact's pre-check reads them too (issue 37). */
  openapi?: Promise<OpenApiOperations> | undefined,
): JournalJudge => {
  const load = () => import('../judge/judge-on-demand.js')
  // Read when asked: a table completed after creation (an OpenAPI document's operations) counts.
  const tools = () => judgeToolsFor(routes.operations)
  return {
    find: async (match) => (await load()).findInJournal(await read(), match, tools()),
    expect: async (match, options) =>
      (await load()).expectInJournal({
        entries: await read(),
        match,
        options,
        session,
        tools: tools(),
      }),
    report: async () => (await load()).reportClient(await read(), { session }),
    coverage: async () =>
      (await load()).measureCoverage(await read(), { session, operations: routes.operations }),
    pact: async (options) => {
      // Checked before anything loads: a bad name is the caller's mistake, said at once.
      const names = checkPactOptions(options)
      const [{ pactOfJournal }, added] = await Promise.all([
        import('../pact/pact-on-demand.js'),
        // A refused document leaves the contract's operations: the pact checks against those.
        openapi?.catch(() => undefined),
      ])
      return pactOfJournal(await read(), names, added)
    },
  }
}
