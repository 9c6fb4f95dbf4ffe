import type { OperationId } from '../contract/operation-ids.js'
import type { Fault } from '../http/types.js'

/** A request's or response's headers and body as the journal shows them (secrets redacted). */
export interface JournalMessage {
  /** Lower-case header names; credentials redacted (contract §14); long values cut with a marker. */
  headers: Record<string, string>
  /** The body as text (UTF-8), capped at `JOURNAL_LIMITS.bodyChars` characters; null for none. */
  body: string | null
  /** True when the body was longer than the cap and was cut. */
  bodyTruncated: boolean
  /**
   * `base64` when `body` is the answer's bytes in base64 (a binary answer, such
   * as an OpenAPI document's `image/png`: decision 0067); absent for text.
   */
  encoding?: 'base64' | undefined
}

/** Where an answer came from: the sandbox itself, the upstream deployment, or a recording. */
export type AnswerSource = 'sandbox' | 'upstream' | 'replay'

/**
 * A rule of the contract that an answer broke (upstream mode validates every
 * real answer with src/validation): its stable id and one sentence. The rule
 * is a string here: a journal also holds entries read back from a recording.
 */
export interface Violation {
  /** A stable rule id, e.g. `spec.errors.body` (src/validation/answer-rules.ts). */
  rule: string
  message: string
}

/**
 * One request the sandbox answered (or failed on purpose), as the journal
 * shows it: `journal.list()`, `GET /__sandbox/requests`, HAR and the
 * `request` event. See docs/decisions/0020-journal-entry.md.
 */
export interface JournalEntry {
  /** Ascending number of the entry within its session. */
  seq: number
  /**
   * The answer's `Request-Id` (contract §22), found by `GET /__sandbox/requests?requestId=`;
   * absent in entries read back from a HAR recorded before it (and where no answer was made).
   */
  requestId?: string
  /** ISO time by the sandbox clock. */
  time: string
  /** The session that answered (`default` unless one was chosen). */
  session: string
  /** The instance that answered, when several share a store (absent otherwise). */
  instance?: string
  method: string
  /** The absolute request URL, with secret-looking query parameters redacted. */
  url: string
  /** The routed operation, whatever the outcome; null when no API route matched. */
  operation: OperationId | null
  /** Who called (contract §18): `key:<ref>` for a valid key, else `anon:<client address>`. */
  caller: string
  /** The `<ref>` of the bearer token sent, valid or not (`sand…#1a2b3c4d`: never the key); null for none. */
  keyRef: string | null
  /**
   * The status of the answer, or null when none was made (the connection was
   * failed instead, `fault`). With `delivered: false` the client may not have
   * seen it: `commit-then-drop` keeps the 201 it never received.
   */
  status: number | null
  /** The Error body's `code` when the answer is an Error, else null. */
  code: string | null
  /**
   * The fault a scenario chose (contract §8, §19): how the connection failed
   * instead of an answer (`network-error`, `timeout`, `empty-response`), or
   * what broke the answer (`reset-mid-body`, `proxy-error`, …).
   */
  fault: Fault | undefined
  /** The scenario that answered (a timeline's phase: the phase's scenario). */
  scenario: string
  /** The timeline phase that chose `scenario`, when a timeline was in play (absent otherwise). */
  phase?: JournalPhase
  /** The plan of the key, when the key was valid. */
  plan: string | undefined
  /** Where the answer came from (`sandbox` unless an upstream or a recording answered). */
  source: AnswerSource
  /** Rules of the contract the answer broke (upstream answers are checked); empty when clean. */
  violations: Violation[]
  /** True when the client went away before the answer (or the fault) reached it. */
  aborted: boolean
  /**
   * False when the answer did not reach the client whole: a failed
   * connection, a fault that breaks the answer on its way (`commit-then-drop`,
   * `reset-mid-body`, `truncated-body`, `stall-after-headers`,
   * `empty-response`), or an answer the client gave up on (`aborted`, a
   * `slow-body` included). The operation may still have run: a 201 with
   * `delivered: false` is a pet the client does not know exists.
   */
  delivered: boolean
  /** Time the sandbox spent on the request, in ms (without a scenario's delay). */
  durationMs: number
  /** A scenario's delay before the answer (or the failure), in ms. */
  delayMs: number
  request: JournalMessage
  /** What the client received; null when the connection was failed. */
  response: JournalMessage | null
}

/** A timeline's phase as the journal names it (contract §19). */
export interface JournalPhase {
  /** The timeline's name (`outage`, or `timeline` for one set inline). */
  timeline: string
  /** 0-based index of the phase in the timeline. */
  index: number
  /** The phase's scenario (the entry's `scenario`). */
  scenario: string
}

/**
 * What the pipeline hands the journal for one request: references, not
 * copies. Nothing is redacted, lower-cased or decoded here; that happens when
 * an entry is read (`toJournalEntry`), so a request nobody reads back costs
 * one small object. The header records are the request's and the answer's
 * own (never mutated afterwards).
 */
export interface JournalCapture {
  /** The answer's `Request-Id` (contract §22). */
  requestId?: string | undefined
  /** Epoch ms by the sandbox clock. */
  at: number
  session: string
  instance?: string | undefined
  method: string
  /** The absolute URL as received (redacted when read). */
  url: string
  operation: OperationId | null
  /** The bearer token sent, kept to derive `keyRef` when read; never shown. */
  token: string | undefined
  /** Whether the token was a valid key of the session. */
  keyValid: boolean
  clientAddress: string | undefined
  status: number | null
  fault: Fault | undefined
  scenario: string
  /** The timeline phase that chose `scenario`, when a timeline was in play. */
  phase?: JournalPhase | undefined
  plan: string | undefined
  source: AnswerSource
  violations: Violation[]
  durationMs: number
  delayMs: number
  requestHeaders: Readonly<Record<string, string | undefined>>
  requestBody: Uint8Array | null
  /** Null when the connection was failed. */
  responseHeaders: Readonly<Record<string, string>> | null
  responseBody: string | null
  /** `base64` when `responseBody` holds the answer's bytes in base64 (a binary answer). */
  responseBodyEncoding?: 'base64' | undefined
}

/** A capture as the journal holds it: bounded, numbered, and linked into the server-wide budget. */
export interface JournalRecord extends JournalCapture {
  seq: number
  aborted: boolean
  /** The request body was longer than the journal keeps. */
  requestBodyCut: boolean
  /** The response body was longer than the journal keeps. */
  responseBodyCut: boolean
  /** Approximate bytes the record holds (what the budget counts). */
  bytes: number
  /** Position across every session of the budget (the dashboard's feed cursor). */
  order: number
  /** The budget's links: the next older and newer record of any session. */
  older: JournalRecord | undefined
  newer: JournalRecord | undefined
  /** The session journal holding it, until evicted. */
  owner: SessionJournal | undefined
}

/** One session's journal: its last `capacity` records, within the server-wide budget. */
export interface SessionJournal {
  /** Records a capture and returns its record, numbered within the session. */
  record(capture: JournalCapture): JournalRecord
  /** The records held, oldest first. */
  records(): JournalRecord[]
  /** How many records are held. */
  readonly size: number
  clear(): void
  readonly capacity: number
  /** @internal The budget evicted the session's oldest record. */
  evictOldest(record: JournalRecord): void
}

/** How much of each request and answer the journal keeps. */
export const JOURNAL_LIMITS = {
  /** Longest body kept, in characters (bytes kept of a request body: 4 times this). */
  bodyChars: 8_192,
  /** Longest header value kept, in characters; longer ones are cut with a marker. */
  headerValueChars: 2_048,
  /** Most header lines kept per message; the rest are dropped with a marker. */
  headers: 100,
} as const
