import type { OperationId } from '../contract/operation-ids.js'

/**
 * What the judge needs of the code that loads at start, handed in by its
 * caller (`JUDGE_TOOLS` in src/sandbox/judge-journal.ts). Imported here, it
 * would split that code into a chunk shared with the judge's own, which a
 * browser app loads only when a test asserts (decision 0032).
 */
export interface JudgeTools {
  /** `keyRef` of src/journal/key-ref.ts: an expected `Authorization: Bearer <key>` is compared by it. */
  keyRef(token: string): string
  /** `OPERATION_IDS` of src/contract/operation-ids.ts. */
  operationIds: readonly OperationId[]
}
