/** A rule's stable id (contract §18); `RULE_IDS` in report-client.ts lists them in order. */
export type RuleId =
  | 'retry-before-retry-after'
  | 'no-exponential-backoff'
  | 'request-while-banned'
  | 'deprecated-operation'
  | 'key-in-query'
  | 'duplicate-create-after-failure'
  | 'repeated-invalid-key'

/** `error`: the client breaks the spec; `warning`: it will hurt it (or its users) later. */
export type FindingLevel = 'error' | 'warning'

/** One thing a client did wrong, and the journal entries that show it. */
export interface Finding {
  rule: RuleId
  level: FindingLevel
  /** One or two sentences a client developer understands, naming what to do instead. */
  message: string
  /** The `seq`s of the journal entries that show it, ascending. */
  seqs: number[]
}

/** What a client did wrong in one session, from its journal (contract §18). */
export interface ClientReport {
  session: string
  /** Requests judged (the session's journal, as far as it reaches back). */
  requests: number
  /** In journal order: by their first `seq`, then their last, then the rule's order. */
  findings: Finding[]
}
